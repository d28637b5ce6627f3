// An in-process store for the demo upstream provider's sessions, codes and tokens: one process,
// throwaway (a restart signs everyone out of the demo provider, which is fine for a demo). The
// tests' upstream provider (@edu/testing/sign-in) uses it too.
'use strict';

function memoryAdapterFactory() {
  const store = new Map();
  const live = (key) => {
    const e = store.get(key);
    if (!e || (e.exp && e.exp < Date.now())) return undefined;
    return e.payload;
  };
  return (name) => ({
    async upsert(id, payload, expiresIn) {
      store.set(`${name}:${id}`, { payload, exp: expiresIn ? Date.now() + expiresIn * 1000 : undefined });
      if (payload.uid) store.set(`uid:${payload.uid}`, { payload: { id } });
    },
    async find(id) {
      return live(`${name}:${id}`);
    },
    async findByUid(uid) {
      const ref = live(`uid:${uid}`);
      return ref && ref.id ? live(`${name}:${ref.id}`) : undefined;
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

module.exports = { memoryAdapterFactory };
