export * from './cookie-browser';
export * from './memory-oidc-adapter';
export * from './test-upstream';
export * from './portal-forms';
export * from './school-admin';
export * from './test-lms';
