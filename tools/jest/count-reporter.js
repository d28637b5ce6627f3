// Appends one line of test totals per jest run to $TEST_COUNTS_FILE, so the root test
// command can print the overall `N passed, N failed` line that CI reads.
'use strict';
const fs = require('node:fs');

const path = require('node:path');

/** The Nx project name of the jest run (from project.json beside its config). */
function projectName(rootDir) {
  try {
    return JSON.parse(fs.readFileSync(path.join(rootDir, 'project.json'), 'utf8')).name;
  } catch {
    return rootDir;
  }
}

class CountReporter {
  constructor(globalConfig) {
    this.project = projectName(globalConfig.rootDir);
  }

  onRunComplete(_contexts, results) {
    const file = process.env.TEST_COUNTS_FILE;
    if (!file) return;
    const line = {
      project: this.project,
      passed: results.numPassedTests,
      failed: results.numFailedTests,
      skipped: results.numPendingTests + results.numTodoTests,
      // A suite that crashes before running its tests counts as one failure.
      suiteErrors: results.testResults.filter((r) => r.testExecError && r.numFailingTests === 0).length,
    };
    fs.appendFileSync(file, JSON.stringify(line) + '\n');
  }
}
module.exports = CountReporter;
