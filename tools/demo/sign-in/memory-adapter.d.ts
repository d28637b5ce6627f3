import type { Adapter } from 'oidc-provider';

export function memoryAdapterFactory(): (name: string) => Adapter;
