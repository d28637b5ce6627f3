-- Hand-written SQL of apps/webhook-dispatcher/src (node tools/sql/hand-written-sql.js --write)

-- apps/webhook-dispatcher/src/dispatcher.module.ts: DispatcherModule.forRoot
SELECT 1;
