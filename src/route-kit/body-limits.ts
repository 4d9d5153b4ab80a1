/** What a request body may hold, named in the problems the body parser answers and in the OpenAPI text. */
export const UNSTORABLE_TEXT = 'must be well-formed Unicode text without NUL characters';

/**
 * How deep a JSON body may nest: the body itself is level 1, and no object or array of the API goes
 * past a few levels (the free-form `holidays` and report `filters` included). Deeper bodies are 422
 * with the pointer of the first value past the limit, before anything walks them: a walk of 100,000
 * levels (the text walk below, Ajv, or a store's JSON.stringify) overflows the stack, which answered 500.
 */
export const MAX_JSON_DEPTH = 32;
export const TOO_DEEP = `nests deeper than ${MAX_JSON_DEPTH} levels of objects and arrays`;
