import type { Server } from 'node:net';

/** A port, an inherited descriptor, or a listening server handed over (tools/demo/listen.js). */
export type ListenTarget = number | { fd: number } | Server;

export function mainListenTarget(port: number): ListenTarget;
export function listenOn(server: Server, target: ListenTarget, host?: string): Promise<number>;
