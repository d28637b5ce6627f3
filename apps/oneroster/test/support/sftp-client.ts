/** OpenSSH's `sftp` (Debian's openssh-client) against the SFTP endpoint, in batch mode. */
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

export interface SftpRun {
  code: number;
  output: string;
}

const OPTIONS = [
  '-o',
  'StrictHostKeyChecking=no',
  '-o',
  'UserKnownHostsFile=/dev/null',
  '-o',
  'LogLevel=ERROR',
  '-o',
  'ConnectTimeout=10',
  '-o',
  'NumberOfPasswordPrompts=1',
];

/** A key pair made with ssh-keygen: the private key file and the public key line. */
export async function sshKeyPair(dir: string, name: string): Promise<{ file: string; publicKey: string }> {
  const file = path.join(dir, name);
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', file]);
  const { readFileSync } = await import('node:fs');
  return { file, publicKey: readFileSync(`${file}.pub`, 'utf8').trim() };
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env, cwd?: string): Promise<SftpRun> {
  return new Promise((resolve) => {
    execFile(cmd, args, { env, cwd, timeout: 30_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

/**
 * Runs `commands` as an sftp batch (a leading `-` lets the batch go on after a refusal), signing
 * in with a password (through SSH_ASKPASS, as a person typing it) or a key file.
 */
export function sftpBatch(
  o: { port: number; user: string; password?: string; keyFile?: string; cwd?: string },
  commands: string[],
): Promise<SftpRun> {
  const dir = mkdtempSync(path.join(tmpdir(), 'sftp-batch-'));
  const batch = path.join(dir, 'batch');
  writeFileSync(batch, `${commands.join('\n')}\n`);
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: dir };
  const auth: string[] = [];
  if (o.password !== undefined) {
    const askpass = path.join(dir, 'askpass.sh');
    writeFileSync(askpass, `#!/bin/sh\nprintf '%s\\n' '${o.password.replace(/'/g, "'\\''")}'\n`);
    chmodSync(askpass, 0o700);
    Object.assign(env, { SSH_ASKPASS: askpass, SSH_ASKPASS_REQUIRE: 'force', DISPLAY: 'none' });
    // sftp -b turns on BatchMode (no password prompts); an earlier -o wins in ssh, so this keeps the prompt.
    auth.push('-o', 'BatchMode=no', '-o', 'PreferredAuthentications=password', '-o', 'PubkeyAuthentication=no');
  } else {
    auth.push('-i', o.keyFile!, '-o', 'IdentitiesOnly=yes', '-o', 'PreferredAuthentications=publickey');
  }
  return run('sftp', [...OPTIONS, ...auth, '-P', String(o.port), '-b', batch, `${o.user}@127.0.0.1`], env, o.cwd);
}

/** `ssh` asking for a command (the endpoint refuses shells and commands). */
export function sshCommand(o: { port: number; user: string; keyFile: string }, command: string): Promise<SftpRun> {
  return run('ssh', [
    ...OPTIONS,
    '-i',
    o.keyFile,
    '-o',
    'IdentitiesOnly=yes',
    '-o',
    'BatchMode=yes',
    '-p',
    String(o.port),
    `${o.user}@127.0.0.1`,
    command,
  ]);
}
