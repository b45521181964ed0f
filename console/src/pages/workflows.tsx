import { Route, Router } from 'preact-iso';
import { WorkflowList } from './workflows/list';
import { WorkflowPage } from './workflows/detail';

/** Workflows: the list at /workflows, one workflow's graph at /workflows/:id. Read-only. */
export default function Workflows() {
  return (
    <Router>
      <Route path="/" component={WorkflowList} />
      <Route path="/:id" component={WorkflowPage} />
    </Router>
  );
}
