import { Link } from 'react-router';
import { hasRole } from '../../contract/roles.ts';
import { coreTexts as texts } from '../../contract/texts-core.ts';
import { betaMenu, mainMenu, paths, screens } from '../paths.ts';
import { useSession } from './session.tsx';

/** The main menu: SPEC §2's 11 buttons, then Wareneingang and Kommissionierung, the beta link, and for leads the Leitstand. */
export function MainMenu() {
  const { session } = useSession();
  return (
    <nav className="menu" aria-label={texts.app.mainMenu}>
      {mainMenu.map((name) => (
        <Link key={name} className="menu-button" to={name}>
          {screens[name].button ?? screens[name].title}
        </Link>
      ))}
      <Link className="menu-button menu-button--beta" to={paths.beta.slice(1)}>
        {texts.app.beta}
      </Link>
      {session && hasRole(session.role, 'schichtleitung') && (
        <Link className="menu-button menu-button--secondary" to={paths.leitstand}>
          {texts.menu.leitstand}
        </Link>
      )}
    </nav>
  );
}

/** Beta menu (heading Beta): Zurück, umbuchung, artikelumlagern, nachschub, lagercheck. */
export function BetaMenu() {
  return (
    <nav className="menu" aria-label={texts.app.beta}>
      <h2>{texts.app.beta}</h2>
      <Link className="menu-button menu-button--secondary" to="../">
        {texts.app.back}
      </Link>
      {betaMenu.map((name) => (
        <Link key={name} className="menu-button" to={screens[name].path}>
          {screens[name].title}
        </Link>
      ))}
    </nav>
  );
}

export function NotFound() {
  return (
    <div>
      <p className="hint">{texts.errors.routeNotFound}</p>
      <Link className="menu-button" to={paths.home}>
        {texts.app.back}
      </Link>
    </div>
  );
}
