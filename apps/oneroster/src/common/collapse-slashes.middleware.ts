import type { NextFunction, Request, Response } from 'express';

/** `scheme://authority` of a request target in absolute form (`GET http://host/path`, RFC 9112 §3.2.2). */
const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

/**
 * Tolerates sloppy clients (reference §10 #11): repeated slashes in the path are collapsed
 * before routing (`/ims/oneroster//v1p1/users` → `/ims/oneroster/v1p1/users`). The query string
 * is left as sent. Trailing slashes are already tolerated by the router.
 *
 * A target in absolute form is reduced to its path first: servers must accept that form, and
 * the host it names is never used (links are built on PUBLIC_BASE_URL only).
 */
export function collapseSlashes(req: Request, _res: Response, next: NextFunction): void {
  let url = req.url;
  const absolute = ABSOLUTE_FORM.exec(url);
  if (absolute) {
    url = url.slice(absolute[0].length);
    if (!url.startsWith('/')) url = `/${url}`;
  }
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  if (path.includes('//')) url = path.replace(/\/{2,}/g, '/') + (q === -1 ? '' : url.slice(q));
  if (url !== req.url) req.url = url;
  next();
}
