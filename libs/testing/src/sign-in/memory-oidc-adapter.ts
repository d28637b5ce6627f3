import type { Adapter, AdapterPayload } from 'oidc-provider';

/** An in-process store for a test or demo upstream provider (one process, throwaway). */
export function memoryAdapterFactory(): (name: string) => Adapter {
  const store = new Map<string, { payload: AdapterPayload; exp?: number }>();
  const live = (key: string) => {
    const e = store.get(key);
    if (!e || (e.exp && e.exp < Date.now())) return undefined;
    return e.payload;
  };
  return (name: string) => ({
    async upsert(id, payload, expiresIn) {
      store.set(`${name}:${id}`, { payload, exp: expiresIn ? Date.now() + expiresIn * 1000 : undefined });
      if (payload.uid) store.set(`uid:${payload.uid}`, { payload: { id } as AdapterPayload });
    },
    async find(id) {
      return live(`${name}:${id}`);
    },
    async findByUid(uid) {
      const ref = live(`uid:${uid}`) as { id?: string } | undefined;
      return ref?.id ? live(`${name}:${ref.id}`) : undefined;
    },
    async findByUserCode() {
      return undefined;
    },
    async consume(id) {
      const e = live(`${name}:${id}`);
      if (e) e.consumed = Math.floor(Date.now() / 1000);
    },
    async destroy(id) {
      store.delete(`${name}:${id}`);
    },
    async revokeByGrantId(grantId) {
      for (const [k, v] of store) if (v.payload.grantId === grantId) store.delete(k);
    },
  });
}
