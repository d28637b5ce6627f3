import { promises as fs, constants as fsc } from 'node:fs';
import * as path from 'node:path';
import { utils, type SFTPWrapper } from 'ssh2';
import { attrsOf, Jail, longname } from './jail';

const { STATUS_CODE, OPEN_MODE } = utils.sftp;

type Handle = { kind: 'file'; fd: fs.FileHandle } | { kind: 'dir'; path: string; listed: boolean };

/** Node open flags of SFTP open flags. */
function openFlags(flags: number): number {
  let f = flags & OPEN_MODE.WRITE ? (flags & OPEN_MODE.READ ? fsc.O_RDWR : fsc.O_WRONLY) : fsc.O_RDONLY;
  if (flags & OPEN_MODE.CREAT) f |= fsc.O_CREAT;
  if (flags & OPEN_MODE.TRUNC) f |= fsc.O_TRUNC;
  if (flags & OPEN_MODE.EXCL) f |= fsc.O_EXCL;
  if (flags & OPEN_MODE.APPEND) f |= fsc.O_APPEND;
  // Never follow a link at the last step (the jail checked the folder, not what a link points to).
  return f | fsc.O_NOFOLLOW;
}

function codeOf(err: unknown): number {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return STATUS_CODE.NO_SUCH_FILE;
  if (code === 'EACCES' || code === 'EPERM' || code === 'ELOOP' || code === 'EEXIST')
    return STATUS_CODE.PERMISSION_DENIED;
  return STATUS_CODE.FAILURE;
}

/**
 * The SFTP subsystem of one signed-in user, jailed to their folder: open, read, write, list,
 * stat, rename, remove, mkdir and rmdir inside it; links are not made or followed, and any path
 * that would leave the folder is refused with "permission denied".
 */
export function serveSftp(sftp: SFTPWrapper, jail: Jail, onEscape: (path: string) => void): void {
  new SftpSession(sftp, jail, onEscape).register();
}

class SftpSession {
  private readonly handles = new Map<number, Handle>();
  private next = 0;

  constructor(
    private readonly sftp: SFTPWrapper,
    private readonly jail: Jail,
    private readonly onEscape: (path: string) => void,
  ) {}

  register(): void {
    const s = this.sftp;
    s.on('REALPATH', (reqId, raw) => this.realpath(reqId, raw));
    s.on('OPEN', (reqId, raw, flags) =>
      this.withPath(reqId, raw, async (real) =>
        s.handle(reqId, this.newHandle({ kind: 'file', fd: await fs.open(real, openFlags(flags), 0o644) })),
      ),
    );
    s.on('READ', (reqId, h, offset, length) => this.read(reqId, h, offset, length));
    s.on('WRITE', (reqId, h, offset, data) =>
      this.onFile(reqId, h, (fd) => ok(s, reqId, fd.write(data, 0, data.length, offset))),
    );
    s.on('FSTAT', (reqId, h) => this.onFile(reqId, h, async (fd) => s.attrs(reqId, attrsOf(await fd.stat()))));
    s.on('CLOSE', (reqId, h) => this.close(reqId, h));
    s.on('OPENDIR', (reqId, raw) =>
      this.withPath(reqId, raw, async (real) => {
        if (!(await fs.stat(real)).isDirectory()) return s.status(reqId, STATUS_CODE.NO_SUCH_FILE);
        s.handle(reqId, this.newHandle({ kind: 'dir', path: real, listed: false }));
      }),
    );
    s.on('READDIR', (reqId, h) => this.readdir(reqId, h));
    const stat = (reqId: number, raw: string) =>
      this.withPath(reqId, raw, async (real) => s.attrs(reqId, attrsOf(await fs.lstat(real))));
    s.on('STAT', stat);
    s.on('LSTAT', stat);
    s.on('SETSTAT', (reqId, raw) => this.withPath(reqId, raw, async () => s.status(reqId, STATUS_CODE.OK)));
    s.on('FSETSTAT', (reqId) => s.status(reqId, STATUS_CODE.OK));
    s.on('REMOVE', (reqId, raw) => this.withPath(reqId, raw, (real) => ok(s, reqId, fs.unlink(real))));
    s.on('RMDIR', (reqId, raw) => this.withPath(reqId, raw, (real) => ok(s, reqId, fs.rmdir(real))));
    s.on('MKDIR', (reqId, raw) => this.withPath(reqId, raw, (real) => ok(s, reqId, fs.mkdir(real))));
    s.on('RENAME', (reqId, from, to) =>
      this.withPath(reqId, from, async (a) => this.withPath(reqId, to, (b) => ok(s, reqId, fs.rename(a, b)))),
    );
    for (const op of ['SYMLINK', 'READLINK', 'EXTENDED'])
      s.on(op, (reqId: number) => s.status(reqId, STATUS_CODE.OP_UNSUPPORTED));
    // The client is done: close our side of the channel too, or it waits for us.
    s.on('end', () => {
      this.closeAll();
      s.end();
    });
  }

  private newHandle(h: Handle): Buffer {
    const id = this.next++;
    this.handles.set(id, h);
    const buf = Buffer.alloc(4);
    buf.writeUInt32BE(id, 0);
    return buf;
  }

  private handleOf(buf: Buffer): Handle | undefined {
    return buf.length === 4 ? this.handles.get(buf.readUInt32BE(0)) : undefined;
  }

  /** Runs an operation on a jailed path; refusals and errors become statuses. */
  private withPath(reqId: number, raw: string, op: (real: string) => Promise<void>): void {
    void this.jail.real(raw).then(async (real) => {
      if (real === undefined) return this.refuse(reqId, raw);
      try {
        await op(real);
      } catch (err) {
        this.sftp.status(reqId, codeOf(err));
      }
    });
  }

  private refuse(reqId: number, raw: string): void {
    this.onEscape(raw);
    this.sftp.status(reqId, STATUS_CODE.PERMISSION_DENIED, 'outside your folder');
  }

  private onFile(reqId: number, h: Buffer, op: (fd: fs.FileHandle) => Promise<void>): void {
    const handle = this.handleOf(h);
    if (handle?.kind !== 'file') return this.sftp.status(reqId, STATUS_CODE.FAILURE);
    op(handle.fd).catch((err) => this.sftp.status(reqId, codeOf(err)));
  }

  private realpath(reqId: number, raw: string): void {
    const v = Jail.virtual(raw.startsWith('/') ? raw : `/${raw}`);
    if (v === undefined) return this.refuse(reqId, raw);
    this.sftp.name(reqId, [{ filename: v, longname: v, attrs: {} as never }]);
  }

  private read(reqId: number, h: Buffer, offset: number, length: number): void {
    const size = Math.min(length, 256 * 1024);
    this.onFile(reqId, h, async (fd) => {
      const { bytesRead, buffer } = await fd.read(Buffer.alloc(size), 0, size, offset);
      if (bytesRead === 0) this.sftp.status(reqId, STATUS_CODE.EOF);
      else this.sftp.data(reqId, buffer.subarray(0, bytesRead));
    });
  }

  private readdir(reqId: number, h: Buffer): void {
    const handle = this.handleOf(h);
    if (handle?.kind !== 'dir') return this.sftp.status(reqId, STATUS_CODE.FAILURE);
    if (handle.listed) return this.sftp.status(reqId, STATUS_CODE.EOF);
    handle.listed = true;
    listing(handle.path).then(
      (names) => this.sftp.name(reqId, names),
      (err) => this.sftp.status(reqId, codeOf(err)),
    );
  }

  private close(reqId: number, h: Buffer): void {
    const id = h.length === 4 ? h.readUInt32BE(0) : -1;
    const handle = this.handles.get(id);
    this.handles.delete(id);
    if (!handle) return this.sftp.status(reqId, STATUS_CODE.FAILURE);
    if (handle.kind === 'dir') return this.sftp.status(reqId, STATUS_CODE.OK);
    handle.fd.close().then(
      () => this.sftp.status(reqId, STATUS_CODE.OK),
      (err) => this.sftp.status(reqId, codeOf(err)),
    );
  }

  private closeAll(): void {
    for (const h of this.handles.values()) if (h.kind === 'file') void h.fd.close().catch(() => undefined);
    this.handles.clear();
  }
}

async function ok(sftp: SFTPWrapper, reqId: number, op: Promise<unknown>): Promise<void> {
  await op;
  sftp.status(reqId, STATUS_CODE.OK);
}

async function listing(dir: string) {
  const names = await fs.readdir(dir);
  const out = [];
  for (const name of names) {
    const st = await fs.lstat(path.join(dir, name)).catch(() => undefined);
    if (st) out.push({ filename: name, longname: longname(name, st), attrs: attrsOf(st) });
  }
  return out;
}
