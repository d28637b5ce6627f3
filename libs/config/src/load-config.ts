import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';

type EnvClass<T> = new () => T;

/** Thrown when the environment does not satisfy an app's env class; names every bad variable. */
export class ConfigValidationError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigValidationError';
  }
}

function describe(errors: ValidationError[], raw: Record<string, unknown>): string[] {
  return errors.map((e) => {
    const messages = Object.values(e.constraints ?? {}).join('; ');
    // Show what was given (before conversion), masked when secret.
    const given = raw[e.property];
    const shown = given === undefined ? 'not set' : `got ${JSON.stringify(maskIfSecret(e.target, e.property, given))}`;
    return `${e.property}: ${messages} (${shown})`;
  });
}

/**
 * Validates `env` (default `process.env`) against an env class and returns the typed instance.
 * Unknown variables are ignored; missing optional ones take the class's defaults.
 */
export function loadConfig<T extends object>(cls: EnvClass<T>, env: NodeJS.ProcessEnv = process.env): T {
  const defaults = new cls() as Record<string, unknown>;
  const known: Record<string, unknown> = {};
  for (const key of Object.keys(env)) {
    // Only hand over variables the class declares; an empty string counts as unset.
    if (env[key] !== undefined && env[key] !== '') known[key] = env[key];
  }
  const instance = plainToInstance(cls, { ...defaults, ...known });
  const errors = validateSync(instance, { skipMissingProperties: false, forbidUnknownValues: false });
  if (errors.length > 0) throw new ConfigValidationError(describe(errors, known));
  return instance;
}

const SECRET_KEYS = Symbol('secretKeys');

/** Marks a config property as secret: never logged or echoed in validation errors. */
export function Secret(): PropertyDecorator {
  return (target, key) => {
    const set: Set<string | symbol> = Reflect.getMetadata(SECRET_KEYS, target) ?? new Set();
    set.add(key);
    Reflect.defineMetadata(SECRET_KEYS, set, target);
  };
}

function maskIfSecret(target: object | undefined, property: string, value: unknown): unknown {
  if (!target) return value;
  const set: Set<string> | undefined = Reflect.getMetadata(SECRET_KEYS, target);
  return set?.has(property) ? '***' : value;
}

/** A loggable copy of the config with secrets masked. */
export function maskedConfig(config: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) out[key] = maskIfSecret(config, key, value);
  return out;
}
