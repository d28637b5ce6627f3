import {
  BadRequestException,
  HttpException,
  InternalServerErrorException,
  NotFoundException,
  ServiceUnavailableException,
} from '@nestjs/common';
import { ApiError, ApiErrorCode, RetryLaterError } from '@edu/domain';
import { classifyError } from './classify-error';
import { JsonShapeError } from './json-body-shape';

describe('classifyError', () => {
  it('keeps domain errors and turns wwwAuthenticate into a header', () => {
    const e = classifyError(
      new ApiError(ApiErrorCode.InvalidToken, 'expired', { wwwAuthenticate: 'Bearer error="invalid_token"' }),
    );
    expect(e).toMatchObject({
      status: 401,
      code: 'invalid_token',
      message: 'expired',
      headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
    });
    expect(e.details).toBeUndefined();
  });

  it('maps body-parser failures to 413, 400 and 415', () => {
    const bp = (type: string) => Object.assign(new Error('x'), { type, expose: true });
    expect(classifyError(bp('entity.too.large'))).toMatchObject({ status: 413, code: 'payload_too_large' });
    expect(classifyError(bp('entity.parse.failed'))).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(classifyError(bp('charset.unsupported'))).toMatchObject({ status: 415, code: 'unsupported_media_type' });
  });

  it('maps Nest client errors without leaking their internals', () => {
    expect(classifyError(new NotFoundException('Cannot GET /x'))).toMatchObject({
      status: 404,
      code: 'not_found',
      message: 'No such route',
    });
    expect(classifyError(new BadRequestException('bad'))).toMatchObject({ status: 400, code: 'invalid_request' });
  });

  it('hides unexpected errors behind a generic 500 with an error id', () => {
    const e = classifyError(new TypeError('secret internals at foo.ts:12'));
    expect(e).toMatchObject({ status: 500, code: 'internal_error', message: 'An unexpected error occurred' });
    expect(e.errorId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers body-parser failures with fixed messages even when Nest wraps them (no echo of the body)', () => {
    const parseFailure = Object.assign(new SyntaxError('Unexpected token \'s\', "secret-body" is not valid JSON'), {
      type: 'entity.parse.failed',
      expose: true,
      status: 400,
      statusCode: 400,
    });
    const wrapped = new HttpException(parseFailure.message, 400, { cause: parseFailure });
    expect(classifyError(wrapped)).toMatchObject({
      status: 400,
      code: 'invalid_request',
      message: 'The request body is not valid JSON',
    });
    const sizeMismatch = Object.assign(new Error('request size did not match content length'), {
      type: 'request.size.invalid',
      expose: true,
      status: 400,
      statusCode: 400,
    });
    expect(classifyError(new HttpException(sizeMismatch.message, 400, { cause: sizeMismatch }))).toMatchObject({
      status: 400,
      code: 'invalid_request',
      message: 'The request body could not be read',
    });
  });

  it('refuses over-deep or over-wide bodies with 400 invalid_request naming the limit, bare or wrapped by Nest', () => {
    const shape = Object.assign(new JsonShapeError('The request body is JSON nested deeper than 32 levels'), {
      statusCode: 400,
    });
    for (const e of [shape, new HttpException(shape.message, 400, { cause: shape })]) {
      expect(classifyError(e)).toMatchObject({
        status: 400,
        code: 'invalid_request',
        message: 'The request body is JSON nested deeper than 32 levels',
        headers: {},
      });
    }
  });

  it('answers failed readiness (terminus 503) with 503, Retry-After and the failed checks, not their internals', () => {
    const terminus = new ServiceUnavailableException({
      status: 'error',
      info: { postgres: { status: 'up' } },
      error: { redis: { status: 'down', message: 'connect ECONNREFUSED 10.0.0.7:6379' } },
      details: {},
    });
    const e = classifyError(terminus);
    expect(e).toMatchObject({
      status: 503,
      code: 'service_unavailable',
      message: 'Not ready: redis unavailable',
      headers: { 'Retry-After': '5' },
      outage: true,
    });
    expect(e.errorId).toBeUndefined();
    expect(JSON.stringify(e)).not.toContain('10.0.0.7');
  });

  it('answers database and Redis outages with 503 and Retry-After, never 500', () => {
    const dbDown = Object.assign(new Error('terminating connection due to administrator command'), {
      name: 'QueryFailedError',
      code: '57P01',
    });
    for (const outage of [
      dbDown,
      new Error('Connection is closed.'),
      new ApiError(ApiErrorCode.ServiceUnavailable, 'Try later'),
    ]) {
      const e = classifyError(outage);
      expect(e).toMatchObject({
        status: 503,
        code: 'service_unavailable',
        headers: { 'Retry-After': '5' },
        outage: true,
      });
      expect(e.errorId).toBeUndefined();
    }
  });

  it('answers deliberate refusals (rate limit 429, load shedding 503) with their own Retry-After, neither an outage nor a bug', () => {
    const limited = classifyError(new RetryLaterError(ApiErrorCode.RateLimited, 'Rate limit exceeded', 42));
    expect(limited).toEqual({
      status: 429,
      code: 'rate_limited',
      message: 'Rate limit exceeded',
      headers: { 'Retry-After': '42' },
    });
    const shed = classifyError(new RetryLaterError(ApiErrorCode.ServiceUnavailable, 'Overloaded', 2));
    expect(shed).toEqual({
      status: 503,
      code: 'service_unavailable',
      message: 'Overloaded',
      headers: { 'Retry-After': '2' },
    });
  });

  it('keeps other server errors as a 500 with an error id', () => {
    for (const e of [
      new InternalServerErrorException('db password is hunter2'),
      new HttpException('bad gateway', 502),
    ]) {
      expect(classifyError(e)).toMatchObject({
        status: 500,
        code: 'internal_error',
        message: 'An unexpected error occurred',
        errorId: expect.any(String),
      });
    }
  });
});
