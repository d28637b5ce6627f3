/** The configuration the sources code reads (`RosterSourcesSettings`), bound to the process's env class. */
export const SOURCES_SETTINGS = Symbol('SOURCES_SETTINGS');
