import type { FastifyInstance } from 'fastify';
import * as contract from '../../../../contract/leitstand/inventur.ts';
import { type Deps, registerEndpoint } from '../../../http/route.ts';
import { registerSteppedEndpoint, registerSteppedWrite } from '../../../http/stepped-route.ts';
import { createTasks } from './create-tasks.ts';
import { differences, postDifference, recountDifference } from './differences.ts';
import { counters, createPlan, plans, removePlan, updatePlan } from './plans.ts';
import { assignTask, discardTask, tasks } from './tasks.ts';

/**
 * How long a repeat of 'Aufträge anlegen' waits for its first copy before 409 `creating`: 20,000 locations
 * take a few seconds in steps behind a busy floor.
 */
const CREATE_WAIT_MS = 30_000;

/** Permanente Inventur in the Leitstand (issue 42): plans, 'Aufträge anlegen', tasks, differences. */
export function inventurLeitstandRoutes(app: FastifyInstance, deps: Deps): void {
  const decisionClock = () => ({ now: new Date(deps.clock()), timeZone: deps.config.timeZone });
  registerEndpoint(app, deps, contract.zaehlplaene, async (_input, { db }) => ({
    data: { plaene: await plans(db), zaehler: await counters(db) },
  }));
  registerEndpoint(app, deps, contract.zaehlplanAnlegen, ({ body }, { db, user, requestKey }) =>
    createPlan(db, body, { userId: user.id, requestKey }),
  );
  registerEndpoint(app, deps, contract.zaehlplanAendern, ({ params, body }, { db, user, requestKey }) =>
    updatePlan(db, params.id, body, { userId: user.id, requestKey }),
  );
  registerEndpoint(app, deps, contract.zaehlplanEntfernen, ({ params }, { db, user, requestKey }) =>
    removePlan(db, params.id, { userId: user.id, requestKey }),
  );
  // In steps behind the floor, exactly once per key outside a transaction (as the wave release, decision 33).
  registerSteppedWrite(
    app,
    deps,
    contract.zaehlauftraegeAnlegen,
    ({ params }, { user, steps, requestKey }) =>
      createTasks(
        steps,
        deps.db,
        params.id,
        { userId: user.id, requestKey },
        { now: new Date(deps.clock()), timeZone: deps.config.timeZone },
      ).then((answer) => {
        // The pages reload at every write announced (a stepped write is not announced by its helper).
        deps.changes.publish(contract.zaehlauftraegeAnlegen.name);
        return answer;
      }),
    {
      waitMs: CREATE_WAIT_MS,
      stillRunning: contract.inventurLeitstandTexts.creating,
      // The job journals itself with what it made; a refusal (the plan gone) made nothing.
      audit: () => null,
      untilDone: true,
    },
  );
  // Read at every live refresh of an open page: in steps, so the handhelds' calls go between them.
  registerSteppedEndpoint(app, deps, contract.zaehlauftraege, async ({ query }, { db, steps }) => ({
    data: await tasks(steps, db, query),
  }));
  registerEndpoint(app, deps, contract.zaehlauftragZuweisen, ({ params, body }, { db, user, requestKey }) =>
    assignTask(db, params.id, body.benutzerId, { userId: user.id, requestKey }),
  );
  registerEndpoint(app, deps, contract.zaehlauftragVerwerfen, ({ params }, { db, user, requestKey }) =>
    discardTask(db, params.id, { userId: user.id, requestKey }),
  );
  registerSteppedEndpoint(app, deps, contract.differenzen, async (_input, { db, steps }) => ({
    data: {
      ...(await differences(steps, db, new Date(deps.clock()))),
      zaehler: await steps.run(() => counters(db)),
    },
  }));
  registerEndpoint(app, deps, contract.differenzBuchen, ({ params }, { db, user, requestKey }) =>
    postDifference(db, params.id, { userId: user.id, requestKey }, decisionClock()),
  );
  registerEndpoint(app, deps, contract.differenzNachzaehlen, ({ params, body }, { db, user, requestKey }) =>
    recountDifference(db, params.id, body.benutzerId, { userId: user.id, requestKey }, decisionClock()),
  );
}
