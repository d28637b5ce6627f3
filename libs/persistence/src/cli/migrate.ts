/*
 * Migration runner: `npm run db:migrate`, the compose `migrate` service and the k8s Job. With
 * REPLICATION_ROLE set it then creates or updates this database's side of the identity
 * replication (publication in the global database, subscription in a regional one).
 */
import 'reflect-metadata';
import { runDatabaseCommand } from '../database-command';
import { runMigrateCli } from './migrate-command';

runDatabaseCommand(runMigrateCli);
