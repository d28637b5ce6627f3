/*
 * `npm run db:replication`: creates or updates this database's side of the identity replication
 * from REPLICATION_* configuration (as `npm run db:migrate` does after the migrations).
 * `npm run db:replication -- status`: what this database publishes or subscribes to, with lag.
 */
import { runDatabaseCommand } from '../database-command';
import { runReplicationCli } from './replication-command';

runDatabaseCommand(runReplicationCli);
