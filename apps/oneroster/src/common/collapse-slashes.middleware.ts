import type { NextFunction, Request, Response } from 'express';

/**
 * Tolerates sloppy clients (reference §10 #11): repeated slashes in the path are collapsed
 * before routing (`/ims/oneroster//v1p1/users` → `/ims/oneroster/v1p1/users`). The query string
 * is left as sent. Trailing slashes are already tolerated by the router.
 */
export function collapseSlashes(req: Request, _res: Response, next: NextFunction): void {
  const q = req.url.indexOf('?');
  const path = q === -1 ? req.url : req.url.slice(0, q);
  if (path.includes('//')) req.url = path.replace(/\/{2,}/g, '/') + (q === -1 ? '' : req.url.slice(q));
  next();
}
