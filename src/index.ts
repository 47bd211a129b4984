// stream-schema: validate JSON against JSON Schema while the bytes arrive.
// compile() loads the schema once; a Validator checks parsed values (value mode) or JSON text
// (streaming mode) with the same keyword code.

export {compile, isValidator} from './session/validator.js';
export {tokenValidator, type StreamJsonToken, type TokenValidator} from './session/tokens.js';
export {SchemaError, InputError, ArgumentError, ArgumentRangeError} from './output/errors.js';
export type {InputPosition, UnresolvedReference} from './output/errors.js';
export type * from './types.js';
export {defaultLimits} from './json/limits.js';
