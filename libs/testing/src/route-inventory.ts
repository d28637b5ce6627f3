import type { INestApplication, Type } from '@nestjs/common';
import { ModulesContainer, Reflector } from '@nestjs/core';
import { PUBLIC_ROUTE, REQUIRED_SCOPES } from '@edu/auth';
import type { ScopeKey } from '@edu/domain';
import { controllerRoutes } from './controller-routes';

export interface RouteEntry {
  method: string;
  path: string;
  /** `public`, the accepted scope keys separated by spaces, or `NONE` (refused for everyone). */
  access: string;
}

/** Every controller route of an app with who may call it, read from the auth decorators' metadata. */
export function routeInventory(app: INestApplication): RouteEntry[] {
  const reflector = new Reflector();
  const routes: RouteEntry[] = [];
  const seen = new Set<unknown>();
  for (const mod of app.get(ModulesContainer).values()) {
    for (const wrapper of mod.controllers.values()) {
      const cls = wrapper.metatype as (new (...args: never[]) => unknown) | null;
      if (!cls || seen.has(cls)) continue;
      seen.add(cls);
      for (const { method, path, handler } of controllerRoutes(cls as Type)) {
        const isPublic = reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [handler, cls]);
        const scopes = reflector.getAllAndOverride<ScopeKey[] | undefined>(REQUIRED_SCOPES, [handler, cls]);
        routes.push({ method, path, access: isPublic ? 'public' : scopes?.length ? scopes.join(' ') : 'NONE' });
      }
    }
  }
  return routes.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}
