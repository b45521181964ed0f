import { Route, Router } from 'preact-iso';
import { KnowledgeBases } from './knowledge/bases';
import { KnowledgeBase } from './knowledge/base';

/** Knowledge: the bases at /knowledge, one base (documents, upload, search) at /knowledge/:id. */
export default function Knowledge() {
  return (
    <Router>
      <Route path="/" component={KnowledgeBases} />
      <Route path="/:id" component={KnowledgeBase} />
    </Router>
  );
}
