import { BadRequestException, NotFoundException } from '@nestjs/common';
import { ApiError, ApiErrorCode } from '@edu/domain';
import { classifyError } from './classify-error';

describe('classifyError', () => {
  it('keeps domain errors and turns wwwAuthenticate into a header', () => {
    const e = classifyError(new ApiError(ApiErrorCode.InvalidToken, 'expired', { wwwAuthenticate: 'Bearer error="invalid_token"' }));
    expect(e).toMatchObject({ status: 401, code: 'invalid_token', message: 'expired', headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' } });
    expect(e.details).toBeUndefined();
  });

  it('maps body-parser failures to 413, 400 and 415', () => {
    const bp = (type: string) => Object.assign(new Error('x'), { type, expose: true });
    expect(classifyError(bp('entity.too.large'))).toMatchObject({ status: 413, code: 'payload_too_large' });
    expect(classifyError(bp('entity.parse.failed'))).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(classifyError(bp('charset.unsupported'))).toMatchObject({ status: 415, code: 'unsupported_media_type' });
  });

  it('maps Nest client errors without leaking their internals', () => {
    expect(classifyError(new NotFoundException('Cannot GET /x'))).toMatchObject({ status: 404, code: 'not_found', message: 'No such route' });
    expect(classifyError(new BadRequestException('bad'))).toMatchObject({ status: 400, code: 'invalid_request' });
  });

  it('hides unexpected errors behind a generic 500 with an error id', () => {
    const e = classifyError(new TypeError('secret internals at foo.ts:12'));
    expect(e).toMatchObject({ status: 500, code: 'internal_error', message: 'An unexpected error occurred' });
    expect(e.errorId).toMatch(/^[0-9a-f-]{36}$/);
  });
});
