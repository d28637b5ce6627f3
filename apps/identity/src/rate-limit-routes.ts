import { byMethod, type RouteClassifier } from '@edu/rate-limit';

/** The token endpoint has its own budgets (per client id and per source address); the Identity API reads and writes. */
export const identityRoutes: RouteClassifier = (req) => (req.method === 'POST' && req.path === '/oauth/token' ? 'token' : byMethod(req));
