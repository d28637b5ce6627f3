import { parseArgs, type ParseArgsConfig } from 'node:util';

/**
 * A command line read by node's `parseArgs` (strict unless the config says otherwise), with its
 * refusal (an unknown option, a missing value, a positional the command does not take) returned as
 * the message to print beside the command's usage instead of thrown.
 */
export function parseCommandLine<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> | string {
  try {
    return parseArgs(config);
  } catch (err) {
    // By code, not class: a test runner's sandbox has TypeErrors of another realm.
    const code = (err as NodeJS.ErrnoException | undefined)?.code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_')) return (err as Error).message;
    throw err;
  }
}
