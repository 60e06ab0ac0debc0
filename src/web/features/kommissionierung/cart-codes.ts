import { useEffect, useRef } from 'react';
import { cartList } from '../../../contract/kommissionierwagen.ts';
import { api } from '../../api/api.ts';

/** The codes of the site's pick carts, or why they could not be fetched (no network). */
type CartCodes = { codes: Set<string> } | { error: unknown };

async function loadCartCodes(): Promise<CartCodes> {
  try {
    const { data } = await api.call(cartList, {});
    return { codes: new Set(data.map((cart) => cart.code)) };
  } catch (error) {
    return { error };
  }
}

/**
 * Tells a pick cart's code from a delivery note's number (issue 41): the site's carts, fetched each time the
 * screen comes to its note field (`atStart`; a cart may have been imported meanwhile). `isCart` answers by
 * that list — fetched once more if that failed — or throws why it could not be had.
 */
export function useCartCodes(atStart: boolean): (code: string) => Promise<boolean> {
  const cartCodes = useRef<Promise<CartCodes> | null>(null);
  useEffect(() => {
    if (atStart) cartCodes.current = loadCartCodes();
  }, [atStart]);
  return async (code) => {
    let carts = await cartCodes.current;
    if (!carts || 'error' in carts) {
      cartCodes.current = loadCartCodes();
      carts = await cartCodes.current;
    }
    if ('error' in carts) throw carts.error;
    return carts.codes.has(code);
  };
}
