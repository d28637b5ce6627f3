/**
 * The HTTP routes each app declares, read from the Nest decorators of its controllers (the
 * classes are imported, not the apps booted). Proxies and Ingress rules are checked against
 * these, so a new controller prefix that no public route reaches shows up as a test failure.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import 'reflect-metadata';
import type { Type } from '@nestjs/common';
import { MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { controllerRoutes } from '@edu/testing';
import { REPO_ROOT } from './kustomize';
import type { AppName } from './platform';

export interface AppRoute {
  method: string;
  /** Express-style path: `/v2/alerts/webhook/:id`. */
  path: string;
  controller: string;
}

/** Operations routes every app serves from the shared HTTP library: never routed publicly. */
export const OPS_ROUTES = ['/health/live', '/health/ready', '/metrics'];

function sourceFiles(dir: string, suffixes: string[]): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full, suffixes));
    else if (suffixes.some((s) => entry.name.endsWith(s))) out.push(full);
  }
  return out.sort();
}

/** Feature libraries an app hosts: their controllers are the app's routes too. */
const HOSTED_LIBS: Partial<Record<AppName, string[]>> = { identity: ['libs/sign-in/src'] };

/**
 * The controller classes of an app: those its controller files export, and those its modules
 * register (controllers built by a factory, one class per OneRoster version, exist only there),
 * in its own source and in the feature libraries it hosts.
 */
function controllerClasses(app: AppName): Type[] {
  const found = new Set<Type>();
  // The roster sync worker is an entry point of the oneroster app with no controllers of its own.
  if (app === 'roster-sync') return [];
  const roots = [path.join('apps', app, 'src'), ...(HOSTED_LIBS[app] ?? [])];
  const files = roots.flatMap((root) => sourceFiles(path.join(REPO_ROOT, root), ['.controller.ts', '.module.ts']));
  for (const file of files) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const exported = require(file) as Record<string, unknown>;
    for (const value of Object.values(exported)) {
      if (typeof value !== 'function') continue;
      if (Reflect.getMetadata(PATH_METADATA, value) !== undefined) found.add(value as Type);
      const registered = (Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, value) ?? []) as Type[];
      for (const controller of registered) found.add(controller);
    }
  }
  return [...found];
}

/** Every route of an app's controllers (exported by `*.controller.ts` or registered by `*.module.ts` under `apps/<app>/src` and the libraries it hosts). */
export function appRoutes(app: AppName): AppRoute[] {
  return controllerClasses(app).flatMap((controller) =>
    controllerRoutes(controller).map((r) => ({ method: r.method, path: r.path, controller: controller.name })),
  );
}

/** Turns a route path into a concrete path a request could use (`:id` and `*path` filled in). */
export function samplePath(route: string): string {
  return route.replace(/:[a-zA-Z_]+/g, 'x1').replace(/\*[a-zA-Z_]+/g, 'x1/x2');
}

/** Default limits of the alerts API that proxies in front of it must leave room for. */
export function alertsProxyNeeds(): { messagesBodyLimitBytes: number; testWaitMs: number } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { AlertsEnv } = require(path.join(REPO_ROOT, 'apps/alerts/src/config/alerts.env')) as {
    AlertsEnv: new () => { MESSAGES_BODY_LIMIT_BYTES: number; WEBHOOK_TEST_WAIT_MS: number };
  };
  const env = new AlertsEnv();
  return { messagesBodyLimitBytes: env.MESSAGES_BODY_LIMIT_BYTES, testWaitMs: env.WEBHOOK_TEST_WAIT_MS };
}

/** Routes only operators use (roster imports): served by the app, reached through kubectl port-forward or the CLI, never routed publicly. */
export const isOperatorRoute = (route: string): boolean => route.startsWith('/admin/');
