// Schema loading: find every resource (`$id`), anchor and dynamic anchor, resolve references to
// nodes, check every keyword's value and compile it once. Validation then does no schema parsing.
// Cycles are fine: a node is cached before its keywords are compiled, so a `$ref` to an ancestor
// points at the node being built.

import {isDeepStrictEqual} from 'node:util';
import {SchemaError} from '../output/errors.js';
import {formatsFor, type FormatCheck} from '../formats/index.js';
import {FORMAT_ASSERTION, dialectKeywords, draftFromMetaSchema, draftTables} from '../keywords/drafts.js';
import {metaSchemas} from '../schema/metaschemas.js';
import {escapePointerToken, parsePointer, resolvePointer} from '../json/pointer.js';
import {newNode, setKeywords, type CompiledKeyword, type Compilation, type DraftTable, type KeywordContext, type KeywordDefinition, type Resource, type SchemaNode} from '../schema/node.js';
import {literalNode} from '../keywords/rules/literal.js';
import {customFormatChecks} from '../keywords/format.js';
import {customKeywords} from '../keywords/custom.js';
import {errorMessage} from '../keywords/errorMessage.js';
import {nullable} from '../keywords/nullable.js';
import {annotation} from '../keywords/annotations.js';
import {isObject} from '../keywords/rules/expect.js';
import type {CompileOptions, Draft, SchemaWarning} from '../types.js';
import {DEFAULT_BASE_URI, absoluteUri, closestUris, editDistance, resolveUri, splitFragment, withoutFragment} from '../schema/uri.js';

/** Where a schema object sits: its resource, its base URI and its pointers. */
interface Place {
  readonly resource: ResourceRecord;
  /** Pointer from the resource root. */
  readonly pointer: string;
  /** Pointer from the document root, for SchemaError locations. */
  readonly documentPointer: string;
  readonly documentUri: string;
  readonly draft: DraftTable;
}

interface ResourceRecord extends Resource {
  readonly json: unknown;
  readonly anchors: Map<string, unknown>;
  readonly dynamicAnchorValues: Map<string, unknown>;
  /** Keywords allowed by the meta-schema's `$vocabulary`, when it restricts them. */
  readonly vocabulary: ReadonlySet<string> | undefined;
}

export interface CompiledSchema {
  readonly root: SchemaNode;
  readonly draft: Draft;
  /** What compiled but is likely a mistake: unknown keywords. */
  readonly warnings: readonly SchemaWarning[];
}

export function compileSchema(schema: unknown, options: CompileOptions): CompiledSchema {
  const compiler = new Compiler(options);
  try {
    const root = compiler.compileRoot(schema);
    return {root, draft: compiler.rootDraft.name, warnings: compiler.warnings};
  } catch (error) {
    // Compilation recurses along the schema's nesting; a schema thousands of levels deep is
    // reported as a broken schema, not as a stack overflow.
    if (error instanceof RangeError) throw new SchemaError('schema.tooDeep', '', `the schema is nested too deeply to compile (${error.message})`);
    throw error;
  }
}

const DRAFT_NAMES = new Set<string>(Object.keys(draftTables));
/** How the drafts spell the keyword that identifies a schema (`id`, `$id`). */
const ID_KEYWORDS = [...new Set(Object.values(draftTables).map((draft) => draft.identifiers.id))];

class Compiler {
  /** The `draft` option, else what the root declares with `$schema` (known once it is read), else 2020-12. */
  rootDraft: DraftTable;
  readonly warnings: SchemaWarning[] = [];
  /** Numbers the nodes (SchemaNode.id). */
  readonly compilation: Compilation = {nodeCount: 0};
  private readonly resources = new Map<string, ResourceRecord>();
  private readonly places = new WeakMap<object, Place>();
  private readonly nodes = new WeakMap<object, SchemaNode>();
  /** Documents given by the user (and the meta-schemas), by retrieval URI, scanned on first need. */
  private readonly documents = new Map<string, unknown>();
  private readonly scanned = new Set<string>();
  /** Every registered document has been scanned for its `$id`s (see scanRegisteredDocuments). */
  private registeredScanned = false;
  private readonly formatsByDraft = new Map<Draft, ReadonlyMap<string, FormatCheck>>();
  private readonly customFormats: ReadonlyMap<string, FormatCheck>;
  /**
   * Keywords beside the draft's: the caller's (options.keywords), `errorMessage` under
   * `errorMessages` and `nullable` under `nullable`. They apply in every resource, after the draft's keywords.
   */
  private readonly extraKeywords: ReadonlyMap<string, KeywordDefinition>;
  private readonly touchedResources = new Set<ResourceRecord>();
  /** Regular expressions by source (see KeywordContext.regExp). */
  private readonly regExps = new Map<string, RegExp>();
  /**
   * The URI the root schema was retrieved from (options.baseUri), else a placeholder: the base of
   * its relative references unless its own `$id` says otherwise (2020-12 core §9.1.1, RFC 3986 §5.1).
   */
  private readonly rootUri: string;

  constructor(private readonly options: CompileOptions) {
    if (options.draft !== undefined && !DRAFT_NAMES.has(options.draft)) {
      throw new SchemaError('schema.option.draft', '', `unknown draft "${options.draft}" (expected one of ${[...DRAFT_NAMES].join(', ')})`);
    }
    this.rootDraft = draftTables[options.draft ?? 'draft2020-12'];
    checkChoice(options, 'formats', ['annotate', 'assert']);
    checkChoice(options, 'unknownFormats', ['refuse', 'ignore']);
    this.customFormats = customFormatChecks(options);
    for (const [name, allowed] of valueOptions) expectOption(name, options[name], allowed);
    expectOption('errorMessages', options.errorMessages, [false, true]);
    expectOption('nullable', options.nullable, [false, true]);
    expectOption('refSiblings', options.refSiblings, ['ignore', 'apply']);
    const optional = [...(options.errorMessages === true ? [errorMessage] : []), ...(options.nullable === true ? [nullable] : [])];
    this.extraKeywords = new Map([...customKeywords(options, optional.map(({name}) => name)), ...optional.map((definition) => [definition.name, definition] as const)]);
    this.rootUri = DEFAULT_BASE_URI;
    if (options.baseUri !== undefined) {
      const absolute = typeof options.baseUri === 'string' ? absoluteUri(options.baseUri) : undefined;
      if (absolute === undefined) throw new SchemaError('schema.option.baseUri', '', `baseUri ${JSON.stringify(options.baseUri)} is not an absolute URI`);
      this.rootUri = withoutFragment(absolute);
    }
    for (const [uri, document] of Object.entries(metaSchemas)) this.documents.set(uri, document);
    for (const [uri, document] of Object.entries(options.schemas ?? {})) {
      const absolute = resolveUri(uri, this.rootUri);
      if (absolute === undefined) throw new SchemaError('schema.option.schemas', uri, `"${uri}" in options.schemas is not a URI`);
      this.documents.set(withoutFragment(absolute), document);
    }
  }

  compileRoot(schema: unknown): SchemaNode {
    const draft = this.options.draft !== undefined ? this.rootDraft : this.draftOf(schema, this.rootDraft, '');
    this.rootDraft = draft;
    this.scanDocument(schema, this.rootUri, draft);
    const root = this.compileNode(schema);
    this.compileDynamicAnchors();
    return root;
  }

  // ---- dialect ----

  /**
   * The draft a schema declares with `$schema`, else `fallback`. A `$schema` that names neither an
   * official meta-schema nor a registered one says the schema is written in a dialect we cannot
   * read: refused, as reading it as some other draft could judge documents by keywords its author
   * never meant (2020-12 core §8.1.1), unless the `draft` option says how to read it.
   */
  private draftOf(schema: unknown, fallback: DraftTable, location: string): DraftTable {
    const uri = isObject(schema) ? schema[dialectKeywords.schema] : undefined;
    if (typeof uri !== 'string') return fallback;
    const known = draftFromMetaSchema(uri);
    if (known !== undefined) return draftTables[known];
    // A custom meta-schema: its own `$schema` names the draft it is written in.
    const metaSchemaUri = withoutFragment(resolveUri(uri, DEFAULT_BASE_URI) ?? uri);
    const metaSchema = this.findMetaSchema(metaSchemaUri);
    if (metaSchema !== undefined && isObject(metaSchema) && metaSchema !== schema) return this.draftOf(metaSchema, fallback, metaSchemaUri + '#');
    if (this.options.draft !== undefined) return fallback;
    throw new SchemaError(
      'schema.dialect.unknown',
      location + '/' + dialectKeywords.schema,
      `unknown $schema "${uri}": neither the meta-schema of a draft (${Object.values(draftTables).map((draft) => draft.metaSchema).join(', ')}) nor a schema in options.schemas; register its meta-schema, or set the draft option to read it as that draft`,
    );
  }

  /** Keywords a custom meta-schema's `$vocabulary` allows (2019-09 core §8.1.2), when it restricts them. */
  private vocabularyOf(schema: unknown, draft: DraftTable): ReadonlySet<string> | undefined {
    const uri = isObject(schema) ? schema[dialectKeywords.schema] : undefined;
    if (typeof uri !== 'string' || draft.vocabularies === undefined) return undefined;
    if (draftFromMetaSchema(uri) !== undefined) return undefined;
    const metaSchema = this.findMetaSchema(withoutFragment(resolveUri(uri, DEFAULT_BASE_URI) ?? uri));
    const declared = isObject(metaSchema) ? metaSchema[dialectKeywords.vocabulary] : undefined;
    if (!isObject(declared)) return undefined;
    // Core keywords cannot be turned off (2020-12 core §8.1.2.1).
    const allowed = new Set<string>([...draft.vocabularies].find(([uri]) => uri.endsWith('/vocab/core'))?.[1] ?? []);
    for (const vocabulary of Object.keys(declared)) {
      for (const keyword of draft.vocabularies.get(vocabulary) ?? []) allowed.add(keyword);
    }
    return allowed;
  }

  /**
   * The meta-schema a `$schema` names: registered under that URI, or identified by it with the
   * `$id` (`id` in draft 4) at a registered document's root. Only roots: the drafts of the
   * documents, which decide where an embedded `$id` is, are not known yet.
   */
  private findMetaSchema(uri: string): unknown {
    const document = this.documents.get(uri) ?? this.resources.get(uri)?.json;
    if (document !== undefined) return document;
    for (const [key, candidate] of this.documents) {
      if (!isObject(candidate)) continue;
      for (const name of ID_KEYWORDS) {
        const id = candidate[name];
        if (typeof id === 'string' && withoutFragment(resolveUri(id, key) ?? '') === uri) return candidate;
      }
    }
    return undefined;
  }

  /**
   * Scan every registered document not scanned yet, so that its `$id`s (embedded ones too) name
   * it (2020-12 core §8.2.1: a schema is identified by its `$id`, whatever URI it was given under).
   * Done once, on the first reference to a URI that no key names: a reference to a key costs
   * nothing more.
   */
  private scanRegisteredDocuments(): void {
    if (this.registeredScanned) return;
    this.registeredScanned = true;
    for (const [uri, document] of this.documents) this.scanRegisteredDocument(document, uri);
  }

  // ---- scanning for resources and anchors ----

  /** A registered document, read in the draft its `$schema` names (else the root's). */
  private scanRegisteredDocument(document: unknown, uri: string): void {
    if (!this.scanned.has(uri)) this.scanDocument(document, uri, this.draftOf(document, this.rootDraft, uri + '#'));
  }

  private scanDocument(document: unknown, uri: string, draft: DraftTable): void {
    if (this.scanned.has(uri)) return;
    this.scanned.add(uri);
    const resource = this.newResource(uri, document, draft, uri + '#');
    this.scan(document, {resource, pointer: '', documentPointer: '', documentUri: uri, draft});
  }

  /** The resource `json` opens at `uri`; `location` is where it claims that URI, for a SchemaError. */
  private newResource(uri: string, json: unknown, draft: DraftTable, location: string): ResourceRecord {
    // A document whose `$id` equals the URI it was given under is one resource, not two.
    const existing = this.resources.get(uri);
    if (existing !== undefined && existing.json === json) return existing;
    // One URI names one schema (2020-12 core §8.2.1): of two different ones, neither is the one meant.
    if (existing !== undefined && !isDeepStrictEqual(existing.json, json)) {
      throw new SchemaError('schema.id.duplicate', location, `two different schemas are identified as "${uri}"; the other is ${existing.uri === this.rootUri ? 'the root schema' : 'registered or embedded elsewhere'}`);
    }
    const resource: ResourceRecord = {
      uri,
      draft,
      compilation: this.compilation,
      json,
      anchors: new Map(),
      dynamicAnchors: new Map(),
      dynamicAnchorValues: new Map(),
      recursiveAnchor: false,
      root: undefined,
      vocabulary: this.vocabularyOf(json, draft),
    };
    if (!this.resources.has(uri)) this.resources.set(uri, resource);
    return resource;
  }

  private scan(schema: unknown, place: Place): void {
    if (!isObject(schema)) return;
    if (this.places.has(schema)) return;
    let here = place;
    const draft = place.draft;
    const identifiers = draft.identifiers;
    const hider = hidingKeyword(schema, draft, this.options.refSiblings);
    const id = schema[identifiers.id];
    if (typeof id === 'string' && hider === undefined) {
      here = this.scanId(schema, id, place);
    }
    this.places.set(schema, here);
    const resource = here.resource;
    const anchor = identifiers.anchor === undefined ? undefined : schema[identifiers.anchor];
    if (typeof anchor === 'string') resource.anchors.set(anchor, schema);
    const dynamicAnchor = identifiers.dynamicAnchor === undefined ? undefined : schema[identifiers.dynamicAnchor];
    if (typeof dynamicAnchor === 'string') {
      resource.anchors.set(dynamicAnchor, schema);
      resource.dynamicAnchorValues.set(dynamicAnchor, schema);
    }
    if (identifiers.recursiveAnchor !== undefined && schema[identifiers.recursiveAnchor] === true && here.pointer === '') resource.recursiveAnchor = true;
    for (const [name, definition] of draft.keywords) {
      if (definition.subschemas === undefined || !(name in schema)) continue;
      if (hider !== undefined && name !== hider) continue;
      this.scanSubschemas(schema[name], definition, name, here);
    }
    // They hold schemas in every draft, even where the draft gives them no hooks.
    for (const holder of identifiers.schemaHolders) {
      if (!draft.keywords.has(holder) && isObject(schema[holder])) {
        this.scanSubschemas(schema[holder], {name: holder, subschemas: 'schemaMap', compile: () => undefined}, holder, here);
      }
    }
  }

  /** `$id` opens a new resource, or (draft 6/7 `#name`, draft 4 `id: #name`) names an anchor. */
  private scanId(schema: Record<string, unknown>, id: string, place: Place): Place {
    const base = place.resource.uri;
    const absolute = resolveUri(id, base);
    if (absolute === undefined) throw new SchemaError('schema.id.invalid', this.location(place), `"${id}" is not a valid URI reference`);
    const {resource: uri, fragment} = splitFragment(absolute);
    // From draft 2019-09 a location is named by `$anchor`, and `$id` has no fragment but an empty
    // one (the meta-schema's pattern "^[^#]*#?$"): read as draft 7 reads it, `#foo` would name an
    // anchor the schema's draft does not have.
    if (place.draft.identifiers.anchor !== undefined && fragment !== '') {
      throw new SchemaError('schema.id.invalid', this.location(place), `"${id}": from draft 2019-09, $id has no fragment; name a location with ${place.draft.identifiers.anchor}`);
    }
    if (uri === withoutFragment(base) && id.startsWith('#')) {
      place.resource.anchors.set(fragment, schema);
      return place;
    }
    const draft = this.draftOf(schema, place.draft, this.location(place));
    const resource = this.newResource(uri, schema, draft, this.location(place) + '/' + escapePointerToken(place.draft.identifiers.id));
    if (fragment !== '' && !fragment.startsWith('/')) resource.anchors.set(fragment, schema);
    return {resource, pointer: '', documentPointer: place.documentPointer, documentUri: place.documentUri, draft};
  }

  private scanSubschemas(value: unknown, definition: KeywordDefinition, name: string, place: Place): void {
    const keywordPlace = below(place, '/' + escapePointerToken(name));
    const at = (segment: string, child: unknown): void => this.scan(child, below(keywordPlace, '/' + escapePointerToken(segment)));
    switch (definition.subschemas) {
      case 'schema':
        this.scan(value, keywordPlace);
        return;
      case 'schemaArray':
      case 'schemaOrSchemaArray':
        if (Array.isArray(value)) value.forEach((child, index) => at(String(index), child));
        else if (definition.subschemas === 'schemaOrSchemaArray') this.scan(value, keywordPlace);
        return;
      case 'schemaMap':
      case 'schemaOrStringArrayMap':
        if (isObject(value)) for (const [key, child] of Object.entries(value)) if (!Array.isArray(child)) at(key, child);
        return;
    }
  }

  // ---- references ----

  /** Resolve `reference`, made absolute as `uri` against `base`, to a compiled node. */
  resolveReference(reference: string, uri: string, base: string, from: string): SchemaNode {
    const target = this.lookup(uri);
    if (target === undefined) throw this.unresolved(reference, uri, base, from);
    return this.compileNode(target.value, target.place);
  }

  /** A reference that leads nowhere: what it tried, against which base, and what is there instead. */
  private unresolved(reference: string, uri: string, base: string, from: string): SchemaError {
    const {resource: resourceUri, fragment} = splitFragment(uri);
    const document = this.resources.get(resourceUri)?.json ?? this.documents.get(resourceUri);
    let missing: string;
    let registered: string[];
    if (document === undefined) {
      missing = 'no schema is registered under that URI';
      registered = closestUris(resourceUri, [...new Set([...this.resources.keys(), ...this.documents.keys()])]);
    } else if (fragment.startsWith('/')) {
      missing = `"${resourceUri}" has nothing at "#${fragment}"`;
      registered = closestUris(uri, locationsBeside(document, resourceUri, fragment));
    } else {
      missing = `"${resourceUri}" has no anchor "${fragment}"`;
      registered = closestUris(uri, [...(this.resources.get(resourceUri)?.anchors.keys() ?? [])].map((anchor) => `${resourceUri}#${anchor}`));
    }
    const against = reference === uri ? '' : ` (resolved against the base "${base}")`;
    const closest = registered.length === 0 ? '' : `; registered and close: ${registered.map((near) => `"${near}"`).join(', ')}`;
    return new SchemaError('schema.ref.unresolved', from, `cannot resolve reference "${reference}": tried "${uri}"${against}; ${missing}${closest}`, {reference, uri, base, registered});
  }

  private lookup(uri: string): {value: unknown; place: Place | undefined} | undefined {
    const {resource: resourceUri, fragment} = splitFragment(uri);
    let resource = this.resources.get(resourceUri);
    if (resource === undefined) {
      const document = this.documents.get(resourceUri);
      if (document !== undefined) this.scanRegisteredDocument(document, resourceUri);
      else this.scanRegisteredDocuments();
      resource = this.resources.get(resourceUri);
      if (resource === undefined) return undefined;
    }
    if (fragment === '') return {value: resource.json, place: undefined};
    if (fragment.startsWith('/')) {
      const tokens = parsePointer(fragment);
      if (tokens === undefined) return undefined;
      const value = resolvePointer(resource.json, tokens);
      if (value === undefined) return undefined;
      if (isObject(value) && this.places.has(value)) return {value, place: undefined};
      // A location the scan did not reach as a schema (e.g. inside an unknown keyword): it is
      // still a schema when referenced, in the resource it sits in.
      const documentPlace = this.places.get(resource.json as object);
      return {
        value,
        place: {
          resource,
          pointer: fragment,
          documentPointer: (documentPlace?.documentPointer ?? '') + fragment,
          documentUri: documentPlace?.documentUri ?? resource.uri,
          draft: resource.draft,
        },
      };
    }
    const anchored = resource.anchors.get(fragment);
    return anchored === undefined ? undefined : {value: anchored, place: undefined};
  }

  // ---- nodes ----

  compileNode(schema: unknown, givenPlace?: Place): SchemaNode {
    const place = (isObject(schema) ? this.places.get(schema) : undefined) ?? givenPlace ?? this.fallbackPlace();
    if (typeof schema === 'boolean') return booleanNode(schema, place.resource, place.resource.uri + '#' + place.pointer);
    if (!isObject(schema)) {
      throw new SchemaError('schema.shape', this.location(place), 'a schema must be an object or a boolean');
    }
    const cached = this.nodes.get(schema);
    if (cached !== undefined) return cached;
    if (!this.places.has(schema)) this.scan(schema, place);
    const node = newNode(place.resource, place.resource.uri + '#' + place.pointer);
    this.nodes.set(schema, node);
    this.touchedResources.add(place.resource);
    if (place.pointer === '' && place.resource.root === undefined) place.resource.root = node;
    this.compileKeywords(node, schema, place);
    return node;
  }

  private fallbackPlace(): Place {
    const resource = this.resources.get(this.rootUri)!;
    return {resource, pointer: '', documentPointer: '', documentUri: this.rootUri, draft: resource.draft};
  }

  /** Where a place is, for SchemaError: a pointer in the root document, else URI and pointer. */
  location(place: Place): string {
    return place.documentUri === this.rootUri ? place.documentPointer : place.documentUri + '#' + place.documentPointer;
  }

  private compileKeywords(node: SchemaNode, schema: Record<string, unknown>, place: Place): void {
    const draft = place.draft;
    const hider = hidingKeyword(schema, draft, this.options.refSiblings);
    const vocabulary = place.resource.vocabulary;
    this.checkUnknownKeywords(schema, place);
    const keywords: CompiledKeyword[] = [];
    // What the keywords annotate (KeywordContext.annotate), when annotations are collected.
    const annotations: CompiledKeyword[] | null = this.options.annotations === true ? [] : null;
    for (const [name, definition] of draft.keywords) {
      if (!(name in schema)) continue;
      if (hider !== undefined && name !== hider) continue;
      if (vocabulary !== undefined && !vocabulary.has(name)) continue;
      this.compileKeyword(keywords, definition, schema, place, annotations);
    }
    // No vocabulary lists them: a custom meta-schema's `$vocabulary` does not turn them off.
    for (const [name, definition] of this.extraKeywords) {
      if (name in schema && hider === undefined) this.compileKeyword(keywords, definition, schema, place, annotations);
    }
    // After the keywords that act: a run they fail has no annotations to report anyway.
    for (const keyword of annotations ?? []) keywords.push({...keyword, index: keywords.length});
    setKeywords(node, keywords);
  }

  /** Compile `definition`'s value in `schema` and add it to `keywords`, unless it has nothing to do. */
  private compileKeyword(keywords: CompiledKeyword[], definition: KeywordDefinition, schema: Record<string, unknown>, place: Place, annotations: CompiledKeyword[] | null): void {
    const name = definition.name;
    const context = this.context(schema, name, place, annotations);
    const value = definition.compile(schema[name], context);
    if (value === undefined) return;
    keywords.push({definition, index: keywords.length, value, name, path: '/' + escapePointerToken(name), absoluteLocation: context.absoluteLocation});
  }

  /**
   * Keywords the draft does not know are ignored, as the spec says (2020-12 core, "Extending JSON Schema"), but are
   * most often typos: each is a warning, and with `strict: true` a SchemaError.
   */
  private checkUnknownKeywords(schema: Record<string, unknown>, place: Place): void {
    const draft = place.draft;
    for (const name of Object.keys(schema)) {
      // A schema holder (`definitions`, `$defs`) is read for subschemas and their `$id`s in every
      // draft, as ajv reads them: `$defs` in a draft-07 schema is no typo.
      if (draft.keywords.has(name) || draft.annotations.has(name) || this.extraKeywords.has(name) || draft.identifiers.schemaHolders.includes(name)) continue;
      const location = this.location(place) + '/' + escapePointerToken(name);
      const suggestion = closestKeyword(name, draft);
      const message = `unknown keyword "${name}"${suggestion === undefined ? '' : ` (did you mean "${suggestion}"?)`}`;
      if (this.options.strict === true) throw new SchemaError('schema.keyword.unknown', location, `${message} (strict mode)`);
      this.warnings.push({code: 'schema.keyword.unknown', schemaLocation: location, keyword: name, message: `${message} (at schema location "${location}")`});
    }
  }

  /** The context `name` compiles in; its annotation, if it gives one, joins `annotations` (null: not collected). */
  private context(schema: Record<string, unknown>, name: string, place: Place, annotations: CompiledKeyword[] | null): KeywordContext {
    const keywordPlace = below(place, '/' + escapePointerToken(name));
    const absoluteLocation = place.resource.uri + '#' + keywordPlace.pointer;
    const compiler = this;
    const base = place.resource.uri;
    return {
      schema,
      location: compiler.location(keywordPlace),
      draft: place.draft,
      options: this.options,
      formats: this.formats(place.draft.name),
      assertFormats: place.resource.vocabulary?.has(FORMAT_ASSERTION) ?? false,
      absoluteLocation,
      resource: place.resource,
      subschema(value: unknown, relativePath: string): SchemaNode {
        return compiler.compileNode(value, below(keywordPlace, relativePath));
      },
      sibling(sibling: string): SchemaNode {
        const value = schema[sibling];
        const siblingPlace = below(place, '/' + escapePointerToken(sibling));
        if (typeof value !== 'boolean' && !isObject(value)) {
          throw new SchemaError('schema.keyword.invalid', compiler.location(siblingPlace), `"${sibling}": must be a schema (an object or a boolean)`);
        }
        return compiler.compileNode(value, siblingPlace);
      },
      resolve(ref: string): string {
        const absolute = resolveUri(ref, base);
        if (absolute === undefined) throw new SchemaError('schema.ref.invalid', compiler.location(keywordPlace), `"${ref}" is not a valid URI reference`);
        return absolute;
      },
      reference(ref: string): SchemaNode {
        return compiler.resolveReference(ref, this.resolve(ref), base, compiler.location(keywordPlace));
      },
      literal(value: unknown, relativePath: string): SchemaNode {
        return literalNode(value, place.resource, absoluteLocation + relativePath);
      },
      regExp(source: string): RegExp {
        let compiled = compiler.regExps.get(source);
        if (compiled === undefined) compiler.regExps.set(source, (compiled = new RegExp(source, 'u')));
        return compiled;
      },
      fail(reason: string, relativePath = ''): never {
        throw new SchemaError('schema.keyword.invalid', compiler.location(keywordPlace) + relativePath, `"${name}": ${reason}`);
      },
      annotate(value: unknown): void {
        if (annotations === null) return;
        // A copy of the schema's value, frozen: every result shares it, and none may change it.
        annotations.push({definition: annotation, index: -1, value: deepFreeze(structuredClone(value)), name, path: '/' + escapePointerToken(name), absoluteLocation});
      },
    };
  }

  /** The draft's formats, and the caller's, which replace a draft's format of the same name. */
  private formats(draft: Draft): ReadonlyMap<string, FormatCheck> {
    let formats = this.formatsByDraft.get(draft);
    if (formats === undefined) this.formatsByDraft.set(draft, (formats = new Map([...formatsFor(draft), ...this.customFormats])));
    return formats;
  }

  /** Every `$dynamicAnchor` of every resource we touched gets a node, for run-time lookup. */
  private compileDynamicAnchors(): void {
    let again = true;
    while (again) {
      again = false;
      for (const resource of [...this.touchedResources]) {
        for (const [name, value] of resource.dynamicAnchorValues) {
          if (resource.dynamicAnchors.has(name)) continue;
          resource.dynamicAnchors.set(name, this.compileNode(value));
          again = true;
        }
        if (resource.root === undefined) {
          resource.root = this.compileNode(resource.json);
          again = true;
        }
      }
    }
  }
}

/** An option that takes one of a few strings: anything else is a mistake to refuse, not a default to fall back to. */
function checkChoice<K extends keyof CompileOptions>(options: CompileOptions, name: K, choices: readonly CompileOptions[K][]): void {
  const value = options[name];
  if (value !== undefined && !choices.includes(value)) {
    throw new SchemaError(`schema.option.${name}`, '', `options.${name} must be ${choices.map((choice) => JSON.stringify(choice)).join(' or ')}, not ${JSON.stringify(value)}`);
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}

/** The keyword of `draft` a typo of `name` most likely meant: one or two edits away. */
function closestKeyword(name: string, draft: DraftTable): string | undefined {
  let closest: string | undefined;
  let closestDistance = Math.min(3, name.length);
  for (const known of [...draft.keywords.keys(), ...draft.annotations]) {
    const distance = editDistance(name, known);
    if (distance < closestDistance) [closest, closestDistance] = [known, distance];
  }
  return closest;
}

/** The place `relativePath` (a JSON pointer suffix) below `place`, in the same resource. */
function below(place: Place, relativePath: string): Place {
  return {...place, pointer: place.pointer + relativePath, documentPointer: place.documentPointer + relativePath};
}

/**
 * The locations beside where the JSON pointer `fragment` stops resolving in `document`: the
 * members of the last container it reached, as URIs under `resourceUri`.
 */
function locationsBeside(document: unknown, resourceUri: string, fragment: string): string[] {
  const tokens = parsePointer(fragment);
  if (tokens === undefined) return [];
  let value = document;
  let pointer = '';
  for (const token of tokens) {
    const next = resolvePointer(value, [token]);
    if (next === undefined) break;
    value = next;
    pointer += '/' + escapePointerToken(token);
  }
  if (value === null || typeof value !== 'object') return [];
  return Object.keys(value).map((key) => `${resourceUri}#${pointer}/${escapePointerToken(key)}`);
}


/** The value options and the values each takes, as ajv's options of those names do. */
const valueOptions: readonly (readonly ['coerceTypes' | 'useDefaults' | 'removeAdditional', readonly unknown[]])[] = [
  ['coerceTypes', [false, true, 'array']],
  ['useDefaults', [false, true, 'empty']],
  ['removeAdditional', [false, true, 'all', 'failing']],
];

/** An option set to a value it does not take would otherwise be read as off, silently. */
function expectOption(name: string, value: unknown, allowed: readonly unknown[]): void {
  if (value === undefined || allowed.includes(value)) return;
  throw new SchemaError(`schema.option.${name}`, '', `${name} ${JSON.stringify(value)} is not one of ${allowed.map((each) => JSON.stringify(each)).join(', ')}`);
}

/**
 * The keyword present in `schema` that makes its siblings ignored in `draft` (`$ref` before
 * 2019-09), if any: none where `refSiblings` says they apply.
 */
function hidingKeyword(schema: Record<string, unknown>, draft: DraftTable, refSiblings: CompileOptions['refSiblings']): string | undefined {
  const hider = refSiblings === 'apply' ? undefined : draft.identifiers.hidesSiblings;
  return hider !== undefined && hider in schema ? hider : undefined;
}

export function booleanNode(value: boolean, resource: Resource, absoluteLocation: string): SchemaNode {
  const node = newNode(resource, absoluteLocation);
  node.bool = value;
  return node;
}

