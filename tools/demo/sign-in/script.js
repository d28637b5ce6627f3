// The command line of a demo step script the guides run (person.js, lms-launch.js): its
// positional arguments read with parseArgs (`--help` prints the usage), what the step returns
// printed, and a failure's message on stderr with exit code 1 (2 for a wrong command line).
'use strict';
const { parseArgs } = require('node:util');

function readPositionals(usage, count) {
  try {
    const { values, positionals } = parseArgs({
      args: process.argv.slice(2),
      options: { help: { type: 'boolean', short: 'h', default: false } },
      allowPositionals: true,
    });
    if (values.help) return { help: true };
    return positionals.length === count
      ? { positionals }
      : { refused: `expected ${count} arguments, got ${positionals.length}` };
  } catch (err) {
    if (String(err.code).startsWith('ERR_PARSE_ARGS_')) return { refused: err.message };
    throw err;
  }
}

/** Runs `step` with the script's `count` positional arguments (`usage` names them). */
function runStepScript(usage, count, step) {
  const line = readPositionals(usage, count);
  if (line.help) return console.log(usage);
  if (line.refused) {
    console.error(`${line.refused}\n${usage}`);
    process.exit(2);
  }
  step(...line.positionals).then(
    (answer) => console.log(answer),
    (err) => {
      console.error(err.message);
      process.exit(1);
    },
  );
}

module.exports = { runStepScript };
