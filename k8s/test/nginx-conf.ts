/**
 * Just enough of nginx's configuration language to check the compose proxy statically: the
 * directive tree, and which location a request path lands in (exact `=` locations first, then
 * the longest prefix; regular-expression locations are refused so the answer stays certain).
 */
import * as fs from 'node:fs';

export interface Directive {
  name: string;
  args: string[];
  block?: Directive[];
}

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (/\s/.test(ch)) i++;
    else if (ch === '#') while (i < text.length && text[i] !== '\n') i++;
    else if (ch === '{' || ch === '}' || ch === ';') tokens.push(text[i++]);
    else if (ch === '"' || ch === "'") {
      let j = i + 1;
      let value = '';
      while (j < text.length && text[j] !== ch) {
        if (text[j] === '\\') j++;
        value += text[j];
        j++;
      }
      if (j >= text.length) throw new Error('unterminated string in nginx configuration');
      tokens.push(`\u0000${value}`);
      i = j + 1;
    } else {
      let j = i;
      while (j < text.length && !/[\s{};#]/.test(text[j])) j++;
      tokens.push(text.slice(i, j));
      i = j;
    }
  }
  return tokens;
}

const unquote = (t: string): string => (t.startsWith('\u0000') ? t.slice(1) : t);

export function parseNginx(text: string): Directive[] {
  const tokens = tokenize(text);
  let at = 0;
  const block = (nested: boolean): Directive[] => {
    const out: Directive[] = [];
    while (at < tokens.length) {
      if (tokens[at] === '}') {
        if (!nested) throw new Error('unexpected } in nginx configuration');
        at++;
        return out;
      }
      const name = tokens[at++];
      const args: string[] = [];
      while (at < tokens.length && tokens[at] !== ';' && tokens[at] !== '{') {
        if (tokens[at] === '}') throw new Error(`directive ${name} is missing its ;`);
        args.push(unquote(tokens[at++]));
      }
      if (at >= tokens.length) throw new Error(`directive ${name} is not terminated`);
      if (tokens[at++] === '{') out.push({ name, args, block: block(true) });
      else out.push({ name, args });
    }
    if (nested) throw new Error('missing } in nginx configuration');
    return out;
  };
  return block(false);
}

export const readNginx = (file: string): Directive[] => parseNginx(fs.readFileSync(file, 'utf8'));

export const directives = (block: Directive[] | undefined, name: string): Directive[] =>
  (block ?? []).filter((d) => d.name === name);
export const directive = (block: Directive[] | undefined, name: string): Directive | undefined =>
  directives(block, name)[0];

/** The location block a request path is served by, or undefined when none matches. */
export function locationFor(server: Directive, path: string): Directive | undefined {
  const locations = directives(server.block, 'location');
  for (const l of locations)
    if (l.args.length !== 1 && l.args[0] !== '=' && l.args[0] !== '^~')
      throw new Error(`location ${l.args.join(' ')}: only exact and prefix locations are supported here`);
  const exact = locations.find((l) => l.args[0] === '=' && l.args[1] === path);
  if (exact) return exact;
  const prefixes = locations.filter((l) => l.args[0] !== '=').map((l) => ({ l, prefix: l.args[l.args.length - 1] }));
  return prefixes.filter((p) => path.startsWith(p.prefix)).sort((a, b) => b.prefix.length - a.prefix.length)[0]?.l;
}

/** Where a location sends requests: `proxy_pass` (a `set` variable resolved) or a fixed `return`. */
export function targetOf(location: Directive): { proxyPass: string } | { status: number } | undefined {
  const pass = directive(location.block, 'proxy_pass');
  if (pass) {
    const value = pass.args[0];
    if (!value.startsWith('$')) return { proxyPass: value };
    const set = directives(location.block, 'set').find((s) => s.args[0] === value);
    if (!set) throw new Error(`proxy_pass ${value} names a variable no set in its location defines`);
    return { proxyPass: set.args[1] };
  }
  const ret = directive(location.block, 'return');
  return ret ? { status: Number(ret.args[0]) } : undefined;
}

/** A directive's value where a location would see it: its own, else its server's. */
export function effective(server: Directive, location: Directive, name: string): string | undefined {
  return (directive(location.block, name) ?? directive(server.block, name))?.args[0];
}

/** `1m`, `33m`, `512k` (nginx sizes) in bytes. */
export function nginxSize(value: string): number {
  const m = /^(\d+)([kmg]?)$/i.exec(value);
  if (!m) throw new Error(`not an nginx size: ${value}`);
  return Number(m[1]) * 1024 ** ['', 'k', 'm', 'g'].indexOf(m[2].toLowerCase());
}

/** `60s`, `2m`, `60` (nginx times) in seconds. */
export function nginxSeconds(value: string): number {
  const m = /^(\d+)(s|m)?$/.exec(value);
  if (!m) throw new Error(`not an nginx time: ${value}`);
  return Number(m[1]) * (m[2] === 'm' ? 60 : 1);
}
