/** Injection token of the DNS resolver the sender checks targets with (tests substitute one). */
export const RESOLVER = Symbol('RESOLVER');
