import { byMethod, type RouteClassifier } from '@edu/rate-limit';
import { apiOfPath } from './oneroster-api';

/** Under the OneRoster roots the only writes are the gradebook's (PUT, DELETE, v1.2 POST); the operator's import upload is a plain write. */
export const onerosterRoutes: RouteClassifier = (req) => {
  const group = byMethod(req);
  return group === 'write' && apiOfPath(req.path) ? 'gradebook-write' : group;
};
