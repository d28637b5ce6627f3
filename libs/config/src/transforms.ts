import { ValidateBy } from 'class-validator';
import { Transform } from 'class-transformer';

/** Parses an env string as an integer; leaves garbage as NaN so validation names it. */
export function ToInt(): PropertyDecorator {
  return Transform(({ value }) =>
    typeof value === 'string' ? (/^-?\d+$/.test(value.trim()) ? Number(value) : Number.NaN) : value,
  );
}

/** Parses `true/false/1/0/yes/no`; anything else stays a string so validation names it. */
export function ToBool(): PropertyDecorator {
  return Transform(({ value }) => {
    if (typeof value !== 'string') return value;
    const v = value.trim().toLowerCase();
    if (['true', '1', 'yes'].includes(v)) return true;
    if (['false', '0', 'no'].includes(v)) return false;
    return value;
  });
}

/** Refuses a known demo value when NODE_ENV is production (the demo defaults are printed by `npm start`). */
export function RefuseInProduction(demoValue: string): PropertyDecorator {
  return ValidateBy({
    name: 'refuseInProduction',
    validator: {
      validate: (value, args) =>
        (args?.object as { NODE_ENV?: string }).NODE_ENV !== 'production' || value !== demoValue,
      defaultMessage: (args) => `${args?.property} must be changed from its demo value in production`,
    },
  });
}
