/** Every answer the chaos workload got, with when and from where: the faults' windows are judged on it. */
import type { AnswerDetail, AnswerRecorder } from '../soak/stats';

export interface RecordedAnswer {
  readonly at: number;
  readonly status: number;
  readonly what: string;
  /** The origin the request went to (which process answered, or did not). */
  readonly origin: string;
  readonly retryAfter: boolean;
  readonly client?: string;
  readonly error?: string;
  /** The start of the body of an error other than 429, to say what went wrong. */
  readonly excerpt?: string;
}

/** A GET whose answer must not change during the run (the workload never writes rostering data). */
export interface WrongAnswer {
  readonly at: number;
  readonly what: string;
  readonly detail: string;
}

export class ChaosRecorder implements AnswerRecorder {
  readonly answers: RecordedAnswer[] = [];
  readonly wrong: WrongAnswer[] = [];

  record(status: number, _ms: number, what: string, detail: AnswerDetail): void {
    this.answers.push({
      at: Date.now(),
      status,
      what,
      origin: new URL(detail.url).origin,
      retryAfter: detail.retryAfter !== null,
      ...(detail.client ? { client: detail.client } : {}),
      ...(detail.error ? { error: detail.error } : {}),
      ...(status >= 400 && status !== 429 && detail.body ? { excerpt: detail.body.slice(0, 300) } : {}),
    });
  }

  wrongAnswer(what: string, detail: string): void {
    this.wrong.push({ at: Date.now(), what, detail });
  }

  between(from: number, to: number): { answers: RecordedAnswer[]; wrong: WrongAnswer[] } {
    return {
      answers: this.answers.filter((a) => a.at >= from && a.at < to),
      wrong: this.wrong.filter((w) => w.at >= from && w.at < to),
    };
  }
}
