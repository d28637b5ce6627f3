/* `npm run db:check-drift`: fails when the entities need schema changes no migration makes. */
import 'reflect-metadata';
import { runDatabaseCommand } from '../database-command';
import { runCheckDriftCli } from './check-drift-command';

runDatabaseCommand(runCheckDriftCli);
