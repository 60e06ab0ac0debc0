import type { FastifyInstance } from 'fastify';
import * as contract from '../../../../contract/leitstand/kommissionierung.ts';
import { type Deps, registerEndpoint } from '../../../http/route.ts';
import { registerSteppedEndpoint, registerSteppedWrite } from '../../../http/stepped-route.ts';
import { emptyCompartment, endTrip } from './cart-actions.ts';
import { carts } from './carts.ts';
import { createProfile, profiles, removeProfile, updateProfile } from './profiles.ts';
import { releaseWave } from './release.ts';
import { takeOut, waveNotesOf, waves } from './waves.ts';

/**
 * How long a repeat of a release waits for its first copy before 409 `releaseRunning` (ms): the largest
 * release takes a few seconds in steps behind a busy floor.
 */
const RELEASE_WAIT_MS = 30_000;

/** Rollende Kommissionierung in the Leitstand (issue 41): profiles, waves, the pick carts and their trips. */
export function kommissionierungRoutes(app: FastifyInstance, deps: Deps): void {
  registerEndpoint(app, deps, contract.kommissionierProfile, async (_input, { db }) => ({
    data: { profile: await profiles(db) },
  }));
  registerEndpoint(app, deps, contract.kommissionierProfilAnlegen, ({ body }, { db, user, requestKey }) =>
    createProfile(db, body, { userId: user.id, requestKey }),
  );
  registerEndpoint(
    app,
    deps,
    contract.kommissionierProfilAendern,
    ({ params, body }, { db, user, requestKey }) =>
      updateProfile(db, params.id, body, { userId: user.id, requestKey }),
  );
  registerEndpoint(app, deps, contract.kommissionierProfilEntfernen, ({ params }, { db, user, requestKey }) =>
    removeProfile(db, params.id, { userId: user.id, requestKey }),
  );
  // In steps behind the floor (a large release held PGlite 630 ms as one statement), exactly once per key
  // outside a transaction: the key is claimed first, the answer stored after the last step (decision 33).
  registerSteppedWrite(
    app,
    deps,
    contract.welleFreigeben,
    ({ params }, { user, steps, requestKey }) =>
      releaseWave(
        steps,
        deps.db,
        params.id,
        { userId: user.id, requestKey },
        {
          now: new Date(deps.clock()),
          claimMinutes: deps.config.pickClaimMinutes,
          timeZone: deps.config.timeZone,
        },
      ).then((answer) => {
        // The Wellen pages reload at every write announced (a stepped write is not announced by its helper).
        deps.changes.publish(contract.welleFreigeben.name);
        return answer;
      }),
    {
      waitMs: RELEASE_WAIT_MS,
      stillRunning: contract.kommissionierungLeitstandTexts.releaseRunning,
      // The release journals itself, with the profile it read; a refusal took no note.
      audit: () => null,
      untilDone: true,
    },
  );
  // Read at every live refresh of an open Wellen page: in steps, so the handhelds' calls go between them.
  registerSteppedEndpoint(app, deps, contract.wellen, async (_input, { db, steps }) => ({
    data: { wellen: await waves(steps, db, new Date(deps.clock())) },
  }));
  registerSteppedEndpoint(app, deps, contract.welleLieferscheine, async ({ params }, { db, steps }) => ({
    data: { lieferscheine: await waveNotesOf(steps, db, params.id) },
  }));
  registerEndpoint(app, deps, contract.welleHerausnehmen, ({ params, body }, { db, user, requestKey }) =>
    takeOut(db, params.id, body.lieferscheinId, { userId: user.id, requestKey }),
  );
  registerEndpoint(app, deps, contract.kommissionierwagen, async (_input, { db }) => ({
    data: { wagen: await carts(db, deps.config.sessionIdleMinutes) },
  }));
  registerEndpoint(app, deps, contract.fahrtBeenden, ({ params }, { db, user, requestKey }) =>
    endTrip(db, params.id, { userId: user.id, requestKey }),
  );
  registerEndpoint(app, deps, contract.fachLeeren, ({ params, body }, { db, user, requestKey }) =>
    emptyCompartment(db, params.id, body.lieferscheinId, { userId: user.id, requestKey }),
  );
}
