// `required` (2020-12 validation §6.5.3): every listed name must be present. A property whose value
// is null is present. Which names arrived is a bit set; the verdict comes at the object's close.

import {OBJECT, type KeywordDefinition} from '../schema/node.js';
import {expectUniqueStrings} from './rules/expect.js';
import {PresenceSet, newSeen, seeBit, type Seen} from './rules/presence.js';

export const required: KeywordDefinition<PresenceSet> = {
  name: 'required',
  compile(value, context) {
    const names = expectUniqueStrings(value, context);
    // Draft 4 (validation §5.4.3): "This array MUST have at least one element."
    if (names.length === 0 && context.draft.name === 'draft4') throw context.fail('must have at least one element in draft 4');
    return names.length === 0 ? undefined : new PresenceSet(names);
  },
  classify: (keyword, name) => keyword.value.bitOf(name),
  outline: (keyword, outline) => outline.present(keyword.value.names),
  key(run, keyword, _name, bit: number) {
    seeBit(run.state(keyword, newSeen), bit);
  },
  end(run, keyword) {
    if (run.kind !== OBJECT) return;
    const presence = keyword.value;
    const seen = run.peekState<Seen>(keyword);
    for (const name of presence.names) {
      if (presence.has(seen, name)) continue;
      run.fail(keyword, `must have required property "${name}"`, {missingProperty: name});
      if (run.settled) return;
    }
  },
};
