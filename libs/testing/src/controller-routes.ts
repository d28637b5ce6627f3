import { RequestMethod, type Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';

export interface ControllerRoute {
  method: string;
  /** Express-style path: `/v2/alerts/webhook/:id`. */
  path: string;
  /** The handler function (for reading its other decorators' metadata). */
  handler: (...args: never[]) => unknown;
}

const join = (...parts: Array<string | undefined>): string =>
  `/${parts
    .flatMap((p) => (p ?? '').split('/'))
    .filter(Boolean)
    .join('/')}`;

const asList = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

/** Every route one Nest controller class declares, read from its decorators' metadata (no app booted). */
export function controllerRoutes(controller: Type): ControllerRoute[] {
  const base = Reflect.getMetadata(PATH_METADATA, controller) as string | string[] | undefined;
  const proto = controller.prototype as Record<string, unknown>;
  const routes: ControllerRoute[] = [];
  for (const name of Object.getOwnPropertyNames(proto)) {
    const handler = proto[name];
    if (name === 'constructor' || typeof handler !== 'function') continue;
    const methodPath = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
    if (methodPath === undefined) continue;
    const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number] as string;
    for (const b of asList(base))
      for (const p of asList(methodPath))
        routes.push({ method, path: join(b, p), handler: handler as ControllerRoute['handler'] });
  }
  return routes;
}
