import { ConfigValidationError, loadConfig } from './load-config';

/** For main.ts: load the env class or print every bad variable and stop the boot. */
export function loadConfigOrExit<T extends object>(cls: new () => T, service: string): T {
  try {
    return loadConfig(cls, process.env);
  } catch (err) {
    if (err instanceof ConfigValidationError) {
      process.stderr.write(
        `${JSON.stringify({ level: 'fatal', service, msg: err.message, problems: err.problems })}\n`,
      );
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
}
