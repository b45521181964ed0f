import { Page } from '../ui/page';

/** Not built yet: this page comes with the console's page work. */
export default function Placeholder() {
  return (
    <Page title="numbers">
      <p>This page is not built yet.</p>
    </Page>
  );
}
