module.exports = require('../../tools/jest/project-config')(__dirname);
