// RFC 3492 Punycode, the encoding behind IDNA A-labels (RFC 5891 §4.4, §5.3).

// RFC 3492 §5: parameter values for Punycode.
const base = 36;
const tMin = 1;
const tMax = 26;
const skew = 38;
const damp = 700;
const initialBias = 72;
const initialN = 0x80;
const delimiter = 0x2d;

/** RFC 3492 §6.1 bias adaptation. */
function adapt(delta: number, numPoints: number, firstTime: boolean): number {
  let scaled = firstTime ? Math.floor(delta / damp) : delta >> 1;
  scaled += Math.floor(scaled / numPoints);
  let k = 0;
  while (scaled > ((base - tMin) * tMax) >> 1) {
    scaled = Math.floor(scaled / (base - tMin));
    k += base;
  }
  return k + Math.floor(((base - tMin + 1) * scaled) / (scaled + skew));
}

/** RFC 3492 §5: "a"-"z" and "A"-"Z" are 0-25, "0"-"9" are 26-35. */
function digitValue(codePoint: number): number {
  if (codePoint >= 0x61 && codePoint <= 0x7a) return codePoint - 0x61;
  if (codePoint >= 0x41 && codePoint <= 0x5a) return codePoint - 0x41;
  if (codePoint >= 0x30 && codePoint <= 0x39) return codePoint - 0x30 + 26;
  return base;
}

/** RFC 3492 §5: the lowercase digit for a value 0-35. */
function digitCharacter(value: number): string {
  return String.fromCharCode(value < 26 ? 0x61 + value : 0x30 + value - 26);
}

function threshold(k: number, bias: number): number {
  if (k <= bias) return tMin;
  if (k >= bias + tMax) return tMax;
  return k - bias;
}

/** RFC 3492 §6.2 decoding. Returns undefined for input that is not valid Punycode. */
export function decodePunycode(input: string): string | undefined {
  const lastDelimiter = input.lastIndexOf(String.fromCharCode(delimiter));
  const basicLength = Math.max(lastDelimiter, 0);
  const output: number[] = [];
  for (let index = 0; index < basicLength; index++) {
    const codePoint = input.charCodeAt(index);
    if (codePoint >= 0x80) return undefined;
    output.push(codePoint);
  }
  let n = initialN;
  let bias = initialBias;
  let i = 0;
  for (let position = lastDelimiter > 0 ? lastDelimiter + 1 : 0; position < input.length; ) {
    const oldI = i;
    let weight = 1;
    for (let k = base; ; k += base) {
      if (position >= input.length) return undefined;
      const digit = digitValue(input.charCodeAt(position++));
      if (digit >= base) return undefined;
      i += digit * weight;
      const t = threshold(k, bias);
      if (digit < t) break;
      weight *= base - t;
      // Overflow guard (§6.4): no valid code point needs numbers this large.
      if (i > 0x10ffff * (output.length + 1) || weight > 0x10ffff * base) return undefined;
    }
    bias = adapt(i - oldI, output.length + 1, oldI === 0);
    n += Math.floor(i / (output.length + 1));
    i %= output.length + 1;
    if (n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) return undefined;
    output.splice(i, 0, n);
    i++;
  }
  return String.fromCodePoint(...output);
}

/** RFC 3492 §6.3 encoding of a string of code points. */
export function encodePunycode(input: string): string {
  const codePoints = Array.from(input, (character) => character.codePointAt(0)!);
  let output = codePoints.filter((codePoint) => codePoint < 0x80).map((codePoint) => String.fromCharCode(codePoint)).join('');
  const basicLength = output.length;
  let handled = basicLength;
  if (basicLength > 0) output += String.fromCharCode(delimiter);
  let n = initialN;
  let delta = 0;
  let bias = initialBias;
  while (handled < codePoints.length) {
    const next = Math.min(...codePoints.filter((codePoint) => codePoint >= n));
    delta += (next - n) * (handled + 1);
    n = next;
    for (const codePoint of codePoints) {
      if (codePoint < n) delta++;
      if (codePoint !== n) continue;
      let q = delta;
      for (let k = base; ; k += base) {
        const t = threshold(k, bias);
        if (q < t) break;
        output += digitCharacter(t + ((q - t) % (base - t)));
        q = Math.floor((q - t) / (base - t));
      }
      output += digitCharacter(q);
      bias = adapt(delta, handled + 1, handled === basicLength);
      delta = 0;
      handled++;
    }
    delta++;
    n++;
  }
  return output;
}
