import { Route, Router } from 'preact-iso';
import { ToolList } from './tools/list';
import { ToolPage } from './tools/detail';

/** Tools: the list at /tools, one tool (its parameters and JSON) at /tools/:id. Read-only. */
export default function Tools() {
  return (
    <Router>
      <Route path="/" component={ToolList} />
      <Route path="/:id" component={ToolPage} />
    </Router>
  );
}
