import { byMethod, type RouteClassifier } from '@edu/rate-limit';

/** The alert generator's submissions have their own, larger budget; partners read and manage webhooks. */
export const alertsRoutes: RouteClassifier = (req) =>
  req.method === 'POST' && req.path === '/v2/alerts/messages' ? 'alert-submission' : byMethod(req);
