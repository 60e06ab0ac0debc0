/**
 * Two trees read as one, the second's keys first: `texts.errors` is the first download's errors (coreTexts)
 * with the ones only the server sends, each still answered from its own catalogue key. Apart from localized.ts:
 * the first download does not need it.
 */
export function joined<A extends object, B extends object>(first: A, second: B): A & B {
  return new Proxy(first, {
    get: (target, property) =>
      property in second ? Reflect.get(second, property) : Reflect.get(target, property),
    has: (target, property) => property in second || property in target,
    ownKeys: (target) => [...new Set([...Reflect.ownKeys(target), ...Reflect.ownKeys(second)])],
    getOwnPropertyDescriptor: (target, property) =>
      Reflect.getOwnPropertyDescriptor(property in second ? second : target, property),
  }) as A & B;
}
