import { Injectable } from '@nestjs/common';
import { DispatchRepository, type AttemptOutcome, type DeliveryToSend } from '@edu/persistence';
import { MicroBatch } from './micro-batch';

/** Reads the deliveries of concurrent jobs in one query (up to 500, or after 5 ms). */
@Injectable()
export class DeliveryReads extends MicroBatch<string, DeliveryToSend | undefined> {
  constructor(repo: DispatchRepository) {
    super(
      async (ids) => {
        const rows = await repo.loadForSending(ids);
        const byId = new Map(rows.map((r) => [r.id, r]));
        return ids.map((id) => byId.get(id));
      },
      500,
      5,
    );
  }
}

/** Writes the outcomes of concurrent attempts in one statement (up to 1,000, or after 20 ms). */
@Injectable()
export class OutcomeWrites extends MicroBatch<AttemptOutcome, undefined> {
  constructor(repo: DispatchRepository) {
    super(
      async (outcomes) => {
        await repo.recordOutcomes(outcomes);
        return outcomes.map(() => undefined);
      },
      1_000,
      20,
    );
  }
}
