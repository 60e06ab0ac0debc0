import { HANDHELD_MAX, MAX_PRINT, MAX_RANGE } from '../../etiketten.ts';
import type { PartialCatalogue } from '../catalogue.ts';

/**
 * Українська (uk): every handheld text, written for warehouse staff — short imperatives („Скануйте комірку“),
 * polite „ви“ throughout, the words a picker on a Ukrainian warehouse floor uses. Key terms: Lagerplatz →
 * „комірка“ (LP), LHM → „носій вантажу“ (the code stays „LHM“), Charge → „партія“, MHD → „термін
 * придатності“ (field „Придатний до“), Lieferschein → „накладна“, Retoure → „повернення“, Kommissionierung →
 * „комплектація“ (Auftrag → „замовлення“, entnehmen → „відібрати“), Inventur → „інвентаризація“, Umbuchung →
 * „переміщення комірки“ (all of a location; Artikel umlagern → „переміщення товару“), Nachschub →
 * „поповнення“, Wareneingang → „приймання“, Bestand → „залишок“, Fehlmenge → „нестача“, Mehrmenge →
 * „надлишок“, Klärfall → „проблема“ (a note marked for clarification), buchen → „провести“, erfassen →
 * „записати“, Wagen → „візок“, Fach → „відсік“, Schichtleitung → „керівник зміни“, Leitstand →
 * „диспетчерська“. „Batch“ stays as on the papers (it is not a Charge). A site's shift lead should read it
 * once on the handheld (decision 35).
 */

/** A number as a Ukrainian reader writes it (1 000 000). */
const uk = (n: number) => n.toLocaleString('uk-UA');

const pluralRules = new Intl.PluralRules('uk-UA');

/** Ukrainian's three forms of a counted noun: 1, 21 → one; 2–4, 22–24 → few; 0, 5–20, 25… → many. */
const plural = (n: number, one: string, few: string, many: string) => {
  const form = pluralRules.select(n);
  return form === 'one' ? one : form === 'few' ? few : many;
};

// The words several texts share (German reads them from one text too).
const location = 'Комірка';
const article = 'Товар';
const amount = 'Кількість';
const deliveryNote = 'Накладна';
const employeeCard = 'Картка працівника';
const swapBody = 'Змінний кузов';
const cart = 'Візок';
const countTask = 'Завдання підрахунку';
const countPlan = 'План підрахунку';
const user = 'Користувач';
const batchField = { label: 'Batch', tooLong: 'Увага - Batch має лише шість цифр!' };
const mhdHint = 'ДД.ММ.РРРР, ДДММРР або РРРР-ММ-ДД';
const mhdInvalid = 'Неправильний термін придатності. Введіть як ДД.ММ.РРРР.';

const labelSizes = {
  'a4-70x36': 'Аркуш A4 70 × 36 мм (3 × 8)',
  'a4-105x48': 'Аркуш A4 105 × 48 мм (2 × 6)',
  '100x50': 'Рулон 100 × 50 мм',
  '57x32': 'Рулон 57 × 32 мм',
};

const rest = (stops: number, pieces: number) =>
  `Ще ${stops} ${plural(stops, 'комірка', 'комірки', 'комірок')}, ${pieces} шт.`;

export default {
  app: {
    title: 'Lagerscanner',
    back: 'Назад',
    logout: (name) => `Вийти (${name})`,
    mainMenu: 'Головне меню',
    clearField: (label) => `Очистити: ${label}`,
    less: (label) => `${label}: менше`,
    more: (label) => `${label}: більше`,
    beta: 'Бета',
    loading: 'Завантаження …',
    settings: 'Налаштування',
    description: 'Облік складу й відправлень зі сканером штрихкодів',
    offline: 'Немає з’єднання із сервером. Скани знову прийматимуться, коли мережа повернеться.',
    offlineCapture:
      'Немає з’єднання із сервером. Скани зберігаються й будуть надіслані, щойно мережа повернеться.',
    offlineMenu:
      'Немає з’єднання із сервером. Записи зберігаються й надсилаються пізніше; решта працює лише з мережею.',
    newVersion: 'Нова версія – перезавантажити',
  },
  settings: {
    scannerTestTitle: 'Тест сканера',
    testSheetTitle: 'Тестовий аркуш сканера',
    sound: 'Звук',
    volume: 'Гучність',
    vibration: 'Вібрація',
    deviceName: 'Назва пристрою',
    deviceNameHint: 'напр. Сканер 3 Приймання',
    prefix: 'Префікс сканера',
    suffix: 'Суфікс сканера',
    groupSeparatorAs: 'Роздільник груп (GS) надходить як',
    doubleRead: 'Подвійне зчитування, якщо той самий код надходить протягом … мс',
    scannerHint:
      'Заповнюйте, лише якщо сканер надсилає символи перед кодом чи після нього або вводить роздільник груп GS1 іншим символом.',
    testSuccess: 'Тест: успіх',
    testError: 'Тест: помилка',
    saved: 'Збережено – діє для цього пристрою.',
    scannerTest: 'Тест сканера',
    testSheet: 'Друк тестового аркуша',
  },
  menu: {
    leitstand: 'Диспетчерська',
    batcherfassung: 'Batch',
    kartonagenerfassung: 'Коробки',
    paketausgang: 'Відправка посилок',
    paketinhalt: 'Вміст посилки',
    // A soft hyphen: the word is about as wide as half a handheld's screen (the menu's two columns).
    inventur: 'Інвента\u00adризація',
    retoure: 'Повернення',
    batch: 'Batch (накладна)',
    container: swapBody,
    transporter: 'Транспорт',
    wmsretoure: 'WMS-повернення',
    zollpaket: 'Митна посилка',
    kommissionierung: 'Комплектація',
    kommissionierungButton: 'Комплек\u00adтація',
    umbuchung: 'Переміщення комірки',
    artikelumlagern: 'Переміщення товару',
    nachschub: 'Поповнення',
    lagercheck: 'Перевірка комірки',
    wareneingang: 'Приймання',
  },
  login: {
    heading: 'Вхід',
    cardPrompt: 'Скануйте картку працівника',
    cardLabel: 'Картка',
    username: 'Ім’я',
    password: 'Пароль',
    submit: 'Увійти',
    toCard: 'Увійти з карткою',
    toPassword: 'Увійти з ім’ям і паролем',
    failed: 'Користувача не знайдено або немає прав!',
    serverError: 'Помилка входу: системна помилка. Зверніться до ІТ.',
    tooMany: 'Забагато спроб входу. Спробуйте ще раз за кілька хвилин.',
  },
  errors: {
    noLogin: 'Ви не увійшли. Сторінка перезавантажується.',
    role: {
      mitarbeiter: 'Немає дозволу на цю дію.',
      schichtleitung: 'Це може лише керівник зміни.',
      admin: 'Це може лише ІТ-адміністрація.',
    },
    badRequest: 'Неправильний запит.',
    scanNotSaved: 'Скан не збережено - увійдіть знову!',
    system500: 'Системна помилка (помилка 500) - зверніться до ІТ.',
    network: 'Помилка мережі. Спробуйте ще раз.',
    routeNotFound: 'Такої адреси немає.',
    input: {
      missing: (field) => `${field}: не вказано.`,
      tooLong: (field, max) => `${field}: забагато символів, не більше ${uk(max)}.`,
      tooShort: (field, min) => `${field}: замало символів, не менше ${uk(min)}.`,
      controlCharacter: (field) => `${field}: недопустимий керівний символ. Скануйте ще раз.`,
      controlCharacterTyped: (field) => `${field}: недопустимий керівний символ.`,
      notANumber: (field) => `${field}: має бути число.`,
      notAWholeNumber: (field) => `${field}: має бути ціле число.`,
      tooSmall: (field, min) => `${field}: не менше ${uk(min)}.`,
      tooBig: (field, max) => `${field}: не більше ${uk(max)}.`,
      step: (field, step) => `${field}: лише кроками по ${uk(step)}.`,
      tooMany: (field, max) => `${field}: не більше ${uk(max)} записів.`,
      notADate: (field) => `${field}: неправильна дата.`,
      notAnId: (field) => `${field}: неправильний номер.`,
      invalid: (field) => `${field}: неправильне значення.`,
    },
    csrf: 'Недійсний токен безпеки. Перезавантажте сторінку.',
    unauthorized: 'Ви не увійшли або сеанс завершився. Увійдіть знову.',
    forbidden: 'Немає дозволу на цю дію.',
    notFound: 'Не знайдено.',
    urlTooLong: 'Адреса задовга.',
    badUrl: 'Адреса неправильна.',
    invalidJson: 'Запит не є коректним JSON.',
    bodyTooLarge: 'Запит завеликий.',
    unsupportedMediaType: 'Запит має бути у форматі JSON.',
    missingIdempotencyKey: 'Запит не має дійсного ключа ідемпотентності (X-Idempotency-Key, UUID v4).',
    idempotencyConflict: 'Цю дію вже надіслано з іншими даними. Введіть заново.',
    unavailable: 'Сервер зараз не готовий. Спробуйте ще раз за мить.',
    overloaded: 'Сервер перевантажений – спробуйте ще раз за кілька секунд.',
    heavyBusy: 'Зараз уже йде великий експорт, імпорт або друк етикеток. Спробуйте ще раз за хвилину.',
  },
  outbox: {
    saved: 'Збережено – буде надіслано',
    failed: 'Не вдалося',
    title: 'Ненадіслані скани',
    badge: (pending) => `${pending} ${plural(pending, 'скан', 'скани', 'сканів')} не надіслано`,
    badgeFailed: (failed) => `не вдалося: ${failed}`,
    badgeOthers: (count) => `${count} від інших користувачів`,
    pending: 'Буде надіслано, щойно мережа повернеться',
    none: 'Усі скани надіслано.',
    sendNow: 'Надіслати зараз',
    acknowledge: 'Прочитано',
    othersHeading: (name) => `Від ${name} – надішлеться, лише коли ${name} увійде`,
    at: (time) => `скановано ${time}`,
    logoutTitle: 'Усе одно вийти?',
    logoutBody: (pending, failed, name) =>
      [
        pending === 0 ? '' : `${pending} ${plural(pending, 'скан', 'скани', 'сканів')} ще не надіслано.`,
        failed === 0
          ? ''
          : `${failed} ${plural(failed, 'невдалий скан', 'невдалі скани', 'невдалих сканів')} ще не прочитано.`,
        pending > 0
          ? `Вони лишаються на цьому пристрої й будуть надіслані, лише коли ${name} знову увійде.`
          : `Вони лишаються на цьому пристрої, доки ${name} їх не прочитає.`,
      ]
        .filter((sentence) => sentence !== '')
        .join(' '),
    logoutConfirm: 'Вийти',
    cancel: 'Скасувати',
    calls: {
      paketausgang: 'Відправка посилок',
      retourenerfassung: 'Повернення',
      captureBatch: 'Batch',
      captureContainer: swapBody,
      captureTransporter: 'Транспорт',
    },
  },
  banner: {
    earlier: 'Попередні повідомлення',
    more: (n) =>
      n === 1
        ? '… і ще одне повідомлення'
        : `… і ще ${uk(n)} ${plural(n, 'повідомлення', 'повідомлення', 'повідомлень')}`,
  },
  scan: {
    refused: (what) => `Скан не прийнято – ${what}`,
    expected: (label) => `очікується: ${label}.`,
    digitsOnly: (label) => `${label}: лише цифри.`,
    above: (label, max) => `${label}: не більше ${uk(max)}.`,
    typeIn: (label) => `${label}: введіть вручну.`,
    nothingHere: 'тут нічого не сканується. Спершу виберіть функцію.',
    answerFirst: 'спершу дайте відповідь на запитання.',
  },
  lookup: {
    articleNotFound: (x) => `Товар "${x}" не знайдено!`,
    articleAmbiguous: (x) => `Номер "${x}" неоднозначний!`,
    locationNotFound: (x) => `Комірку "${x}" не знайдено!`,
    unknownLocation: 'Комірку не знайдено.',
    unknownArticle: 'Товар не знайдено.',
    lhmNotFound: (x) => `Носій вантажу (LHM) "${x}" не знайдено!`,
    articleOnNoLocation: 'Товару немає в жодній комірці!',
    locationEmpty: 'У цій комірці немає товарів!',
  },
  inventur: {
    heading: 'Інвентаризація',
    location,
    article,
    amount,
    submit: 'Провести',
    clear: 'Очистити',
    confirm: 'Усе правильно?',
    confirmDetail: (article, lp, amount) => `Товар ${article}, комірка ${lp}: кількість ${amount}.`,
    cancel: 'Скасувати',
    chooseLocation: 'Спершу скануйте комірку.',
    chooseArticle: 'Скануйте товар.',
    amountInvalid: 'Введіть кількість від 0 і більше.',
    success: 'Пораховано!',
    historyHeading: 'Останні скани',
    historyTime: 'Час',
    historyArticle: article,
    historyLp: location,
    historyAmount: 'К-сть',
    historyEmpty: 'Ще немає сканів.',
  },
  umlagern: {
    article,
    source: location,
    amount,
    setAmount: 'Задати',
    target: 'Цільова комірка',
    submit: 'Перемістити',
    confirmTitle: 'Підтвердіть переміщення',
    confirmBody: (amount, article, from, to) => `Перемістити ${amount} × ${article} з ${from} до ${to}?`,
    confirm: 'Перемістити',
    cancel: 'Скасувати',
    success: 'Переміщено!',
    maxAmount: (max) => `не більше ${max}`,
    amountRange: (max) => `Введіть кількість від 1 до ${max}.`,
    nothingOnSource: 'Цього товару немає в цій комірці.',
    infoHeading: 'Комірки товару',
    infoLocation: location,
    infoType: 'Тип зберігання',
    infoAmount: amount,
    missingFields: 'Вкажіть товар, комірку, кількість і цільову комірку.',
    sameLocation: 'Вихідна й цільова комірки однакові.',
    readyToMove: 'натисніть «Перемістити» або очистіть поле кнопкою ✕.',
    notEnoughStock: (lp, available, nummer) =>
      `Недостатньо залишку: у ${lp} лише ${available} шт. товару ${nummer}.`,
  },
  stock: {
    overMaximum: (nummer, lp, max) => `Залишок товару ${nummer} у ${lp} перевищив би максимум ${uk(max)}.`,
  },
  umbuchung: {
    from: 'З комірки',
    to: 'До комірки',
    submit: 'Перемістити все',
    contentHeading: 'Вміст',
    number: 'Номер',
    name: 'Назва',
    amount,
    bothNeeded: 'Скануйте обидві комірки.',
    readyToMove: 'натисніть «Перемістити все» або очистіть комірку кнопкою ✕.',
    confirmTitle: 'Буде переміщено всі товари!',
    confirmBody: (from, to) => `З ${from} до ${to}.\nУсе правильно?`,
    confirmButton: 'Перемістити',
    cancel: 'Скасувати',
    done: (count, from, to) =>
      `${count} ${plural(count, 'товар', 'товари', 'товарів')} переміщено з ${from} до ${to}.`,
  },
  lagercheck: {
    location,
    number: 'Номер',
    name: 'Назва',
    amount,
    contentOf: (code) => `Вміст ${code}`,
  },
  nachschub: {
    taskButton: (start, nummer, location) => `${start}: ${nummer} до ${location}`,
    heading: 'Поповнення',
    empty: 'Усі комірки відбору вище мінімального залишку.',
    location,
    article,
    stock: 'Залишок',
    minimum: 'Мінімум',
    source: 'Звідки',
    noSource: 'немає залишку',
    start: 'Поповнити',
    task: (nummer, target) => `Товар ${nummer} до ${target}`,
    scanSource: 'Вихідна комірка',
    scanArticle: article,
    amount,
    scanTarget: 'Цільова комірка',
    submit: 'Провести',
    cancel: 'Скасувати',
    wrongArticle: (expected) => `Скановано не той товар: очікується ${expected}.`,
    wrongTarget: (expected) => `Скановано не ту цільову комірку: очікується ${expected}.`,
    success: 'Поповнення проведено!',
    reload: 'Оновити',
    chooseTask: 'спершу виберіть завдання кнопкою «Поповнити».',
    readyToBook: 'натисніть «Провести» або очистіть поле кнопкою ✕.',
  },
  batch: {
    tooLong: batchField.tooLong,
    notDetermined: 'Не вдалося визначити Batch. Зверніться до ІТ',
    notFound: (x) => `Batch ${x} не знайдено!`,
    captured: (x) => `Batch ${x} записано.`,
    employeeUnknown: 'Картку працівника не розпізнано.',
    tooManyCards: 'Забагато невідомих карток працівників. Спробуйте ще раз за кілька хвилин.',
    assigned: (batch, name) => `Batch ${batch} передано: ${name}.`,
    label: batchField.label,
    done: 'Записано!',
    noteLabel: deliveryNote,
    employeeLabel: employeeCard,
    batchOfNote: (batch) => `Batch ${batch}`,
  },
  container: {
    chooseOption: 'Виберіть варіант!',
    captured: (container, batch) => `Batch ${batch} записано на ${container}.`,
    gls: 'GLS',
    dhl: 'DHL',
    glsProd: 'GLS Prod',
    diakonie: 'Diakonie',
    wechselbruecke: swapBody,
    batchLabel: 'Batch',
    change: 'Інший варіант',
  },
  transporter: {
    kennzeichenMissing: 'Немає номерного знака!',
    plombeMissing: 'Немає пломби!',
    containerMissing: 'Немає змінного кузова!',
    captured: (kennzeichen) => `Транспорт ${kennzeichen} записано.`,
    kennzeichen: 'Номерний знак',
    fill: 'Заповненість',
    plombe: 'Пломба',
    container: swapBody,
    submit: 'Записати',
  },
  paketinhalt: {
    deliveryNoteNotFound: (x) => `Накладну ${x} не вдається знайти.`,
    noContent: 'Накладна порожня. Зверніться до ІТ.',
    alreadyScanned: (nummer, name) => `${nummer} ${name} уже скановано`,
    notInDeliveryNote: 'Товару немає в накладній',
    maxReached: (x) => `Досягнуто максимальної кількості для товару ${x}`,
    itemNotInNote: (x) => `Артикул/EAN: ${x} немає в накладній.`,
    otherNoteScanned: (belegnr) => `Скановано накладну ${belegnr} – перейти до цієї накладної?`,
    ownNoteScanned: 'Це накладна, яку зараз пакують – скануйте товари.',
    itemNrMismatch: 'Номер товару в адресі й у даних не збігається.',
    // Deutsche Post's product names, as on the parcel's label.
    warenpostInternational: 'Warenpost International Premium!',
    warenpostNational: 'Warenpost National!',
    customsPapers: 'Потрібні митні документи!',
    engraving: 'Містить товар із гравіюванням!',
    scanAllPositions: 'Скануйте всі позиції!',
    klaerfallTitle: 'Увага!',
    klaerfallWrite: 'Заповніть бланк проблеми!',
    cheatRefused: 'Цей код недійсний.',
    cheatNeedsLead: 'Код-скорочення може сканувати лише керівник зміни.',
    tooManyCodes: 'Забагато невідомих кодів. Спробуйте ще раз за кілька хвилин.',
    noteLabel: deliveryNote,
    itemLabel: 'Скануйте товар',
    klaerfall: 'Проблема',
    klaerfallBody: 'Позначити накладну як проблему? Посилку не буде відправлено.',
    klaerfallConfirm: 'Повідомити проблему',
    klaerfallOpen: 'Накладна має відкриту проблему!',
    klaerfallClosed: 'Накладну закрито як проблему, її не пакуватимуть.',
    cancel: 'Скасувати',
    continue: 'Далі',
    nummer: 'Номер',
    herstellernummer: 'Арт. вир.',
    name: 'Назва',
    ean: 'EAN',
    lsmenge: 'План',
    pemenge: 'Факт',
    confirmAmountTitle: 'Підтвердіть кількість',
    confirmAmountBody: (amount, nummer) => `${amount} × ${nummer} у посилці?`,
    confirmAmount: 'Підтвердити',
    lastCounted: (nummer) => `Пораховано: ${nummer}`,
    lastCountedAmount: (ist, soll) => `${ist} з ${soll}`,
    complete: 'Усі позиції скановано.',
    otherNote: 'Інша накладна',
    picked: (name) => `Скомплектував(-ла): ${name}`,
    notPicked: 'Не скомплектовано – залишок списується під час пакування.',
    notPickedLine: (n) => `${n} не скомплектовано`,
    notPickedLines: (lines) => `Не скомплектовано: ${lines}.`,
    notPickedRefused: (belegnr) => `Накладну ${belegnr} не скомплектовано. Спершу скомплектуйте.`,
    switchTitle: 'Змінити накладну?',
    switchConfirm: 'Змінити',
  },
  kartonagen: {
    noCartons: 'Проєкту не призначено коробок. Зверніться до ІТ.',
    notInProject: (id) => `Коробка ${id} не належить до проєкту цієї накладної.`,
    idMismatch: 'Накладна в адресі й у даних не збігається.',
    saved: 'Коробки збережено!',
    save: 'Зберегти',
    countThenSave: 'Порахуйте коробки кнопками + і −, потім натисніть «Зберегти».',
    dimensions: (h, w, d) => `${w} × ${d} × ${h} мм`,
    image: (name) => `Зображення: ${name}`,
    close: 'Закрити',
  },
  paketausgang: {
    trackingMismatch: (x) => `Трек-номер ${x} не збігається з накладною або відсутній.`,
    trackingNotFound: (x) => `Трек-номер ${x} не вдається знайти.`,
    tracking: 'Трек-номер',
    captured: 'Записано!',
    compareFor: (belegnr) => `Скануйте посилку для накладної ${belegnr}`,
    carrierImage: (carrier) => `Перевізник ${carrier}`,
  },
  retoure: {
    tracking: 'Трек-номер',
    captured: 'Повернення записано!',
    recorded: (tracking) => `Повернення ${tracking} записано.`,
  },
  wmsretoure: {
    amountInvalid: 'Виправте кількість!',
    chargeMissing: 'Немає партії!',
    mhdMissing: 'Немає терміну придатності!',
    notLhm: 'Ця комірка не є носієм вантажу (LHM).',
    booked: (amount, nummer, lhm) => `${amount} × ${nummer} проведено на ${lhm}.`,
    article,
    charge: 'Партія',
    mhd: 'Придатний до',
    mhdHint,
    mhdInvalid,
    lhm: 'LHM',
    amount,
    quality: 'Якість',
    needsCharge: 'Потрібна партія',
    needsMhd: 'Потрібен термін придатності',
    submit: 'Провести',
    confirmTitle: 'Провести повернення',
    confirmBody: (amount, nummer, lhm) => `Провести ${amount} × ${nummer} на ${lhm}?`,
    confirm: 'Провести',
    cancel: 'Скасувати',
    success: 'Проведено!',
    lhmMissing: 'Скануйте LHM.',
    articleMissing: 'Скануйте товар.',
  },
  zollpaket: {
    newCartHeading: 'Створити новий візок',
    newCart: 'Новий',
    pressNew: 'спершу натисніть «Новий».',
    scanCartHeading: 'Скануйте візок',
    cartPlaceholder: 'Номер візка',
    scanCart: 'Сканувати візок',
    scanNoteHeading: 'Скануйте накладну',
    cartLabel: (name) => `Візок: ${name}`,
    notePlaceholder: deliveryNote,
    close: 'Завершити',
    scan: 'Сканувати',
    confirmTitle: 'Підтвердіть, будь ласка',
    confirmBody: 'Візок повністю заповнено, обмотано плівкою, і його справді можна завершити?',
    cancel: 'Скасувати',
    confirmButton: 'Підтвердити',
    captured: 'Записано!',
    cartClosed: 'Візок завершено!',
    cartStillOpen: (name) => `Візок ${name} ще відкритий, завершіть його!`,
    cartNotFound: (x) => `Візок ${x} не знайдено!`,
    cartNotOpen: (x) => `Візок ${x} не відкритий.`,
    cartAlreadyClosed: (x) => `Візок ${x} уже завершено.`,
    noteOnCart: (note, cart) => `Накладна ${note} уже на візку ${cart}.`,
    noteMissing: 'Скануйте накладну.',
    historyHeading: 'Скановані посилки',
    historyTime: 'Час',
    historyNote: deliveryNote,
    historyCart: cart,
  },
  camera: {
    open: 'Скан камерою',
    hint: 'Наведіть камеру на код',
    starting: 'Камера запускається …',
    cancel: 'Скасувати',
    denied: 'Камеру не дозволено. Дозвольте доступ до камери для цієї сторінки в налаштуваннях браузера.',
    missing: 'Камеру не знайдено.',
    busy: 'Камеру зараз використовує інша програма.',
    insecure: 'Камера працює лише через захищене з’єднання (https://). Зверніться до ІТ.',
    failed: 'Скан камерою неможливий. Введіть сканером або з клавіатури.',
    loadFailed: 'Не вдалося завантажити скан камерою. Перевірте з’єднання.',
  },
  gs1: {
    unreadable: 'GS1-код не читається. Скануйте ще раз.',
    unknownAi: (ai) => `GS1-код: невідомий ідентифікатор даних (${ai}).`,
    tooShort: (ai) => `GS1-код: поле (${ai}) закоротке.`,
    tooLong: (ai) => `GS1-код: поле (${ai}) задовге.`,
    empty: (ai) => `GS1-код: поле (${ai}) порожнє.`,
    notDigits: (ai) => `GS1-код: поле (${ai}) може містити лише цифри.`,
    badCharacters: (ai) => `GS1-код: поле (${ai}) містить недопустимі символи.`,
    checkDigit: (ai) => `GS1-код: неправильна контрольна цифра в полі (${ai}). Скануйте ще раз.`,
    badDate: (ai) => `GS1-код: неправильна дата в полі (${ai}).`,
    badTime: (ai) => `GS1-код: неправильний час у полі (${ai}).`,
    badValue: (ai) => `GS1-код: неправильне значення в полі (${ai}).`,
    twice: (ai) => `GS1-код: поле (${ai}) є двічі з різними значеннями.`,
    notWith: (ai, other) => `GS1-код: поле (${ai}) не може бути разом із полем (${other}).`,
    needs: (ai, alternatives) => {
      const named = alternatives.map((all) => all.map((a) => `(${a})`).join(' і '));
      const list = named.length > 1 ? `${named.slice(0, -1).join(', ')} або ${named.at(-1)}` : named[0];
      return `GS1-код: поле (${ai}) потребує поля ${list}.`;
    },
    misplaced: (ai) => `GS1-код: поле (${ai}) стоїть у посиланні не на своєму місці.`,
  },
  scannerTest: {
    sheetIntro:
      'Роздрукуйте, потім у Налаштуваннях → «Тест сканера» відскануйте три коди (порядок неважливий).',
    print: 'Друкувати',
    intro:
      'Візьміть роздрукований тестовий аркуш і відскануйте три коди в це поле. Результат з’явиться під ним.',
    field: 'Скануйте сюди',
    codes: {
      code128: 'Код 1: Code 128 зі спецсимволами',
      gs1: 'Код 2: GS1-128 з роздільником груп',
      qr: 'Код 3: довгий QR-код',
    },
    checks: {
      code128: 'Перевіряє розкладку клавіатури: y/z і @ " - / _ # ; : \' [ ]',
      gs1: 'Перевіряє роздільник груп (GS) між партією (10) і терміном придатності (17).',
      qr: (length) =>
        `Перевіряє, чи довгі коди надходять повністю (${length} ${plural(length, 'символ', 'символи', 'символів')}).`,
    },
    notScanned: 'Ще не скановано.',
    ok: '✓ Гаразд',
    received: (text) => `Отримано: ${text}`,
    unknownCode: 'Не розпізнано жодного коду тестового аркуша.',
    verdictOk: '✓ Сканер налаштовано правильно.',
    verdictPending: (count) => `Відскануйте ще ${count} з 3 кодів.`,
    verdictProblems: 'Змініть у сканері й повторіть тест:',
    take: 'Застосувати',
    restart: 'Почати тест заново',
    findings: {
      terminatorTab: 'Сканер завершує код клавішею Tab замість Enter.',
      terminatorNone: 'Після коду немає Enter.',
      terminatorAdvice: 'Встановіть у сканері суфікс Enter (CR).',
      slow: (medianMs, maxMs) =>
        `Символи надходять повільно: у середньому ${medianMs} мс між ними, найдовша пауза ${maxMs} мс.`,
      stalls: (maxMs) => `Передача переривається: найдовша пауза ${maxMs} мс.`,
      timingAdvice:
        'Встановіть у сканері затримку між символами (Inter-Character Delay) на 0; для Bluetooth виберіть найшвидшу передачу.',
      layout: (pairs) => `Символи надходять переплутаними: ${pairs}.`,
      layoutAdviceDe: 'Встановіть розкладку клавіатури сканера на німецьку (DE) – як на пристрої.',
      layoutAdviceUs:
        'Встановіть розкладку клавіатури сканера на англійську (US) – як на пристрої – або перемкніть пристрій на німецьку.',
      caseSwapped: (pairs) => `Великі й малі літери переплутано: ${pairs}.`,
      caseAdvice: 'Вимкніть Caps Lock на пристрої або встановіть у сканері «Регістр без змін».',
      pair: (expected, got) => (got === '' ? `«${expected}» відсутній` : `«${expected}» як «${got}»`),
      gsLost: 'Роздільник груп (GS) між партією й терміном придатності відсутній.',
      gsLostCtrl: 'Роздільник груп (GS) надходить як комбінація клавіш Ctrl+] і губиться.',
      gsLostUnidentified:
        'Роздільник груп (GS) надходить як клавіша без символу («Unidentified») і губиться.',
      gsLostAdvice:
        'Налаштуйте сканер замінювати роздільник груп (GS, ASCII 29) іншим символом (напр. <GS>) і впишіть його в Налаштуваннях у поле «Роздільник груп (GS) надходить як».',
      gsAs: (text) => `Роздільник груп (GS) надходить як «${text}».`,
      gsAsAdvice: (text) => `Впишіть «${text}» у поле «Роздільник груп (GS) надходить як».`,
      prefix: (text) => `Перед кодом надходить «${text}».`,
      prefixAdvice: (text) => `Вимкніть префікс у сканері або впишіть «${text}» як префікс сканера.`,
      suffix: (text) => `Після коду надходить «${text}».`,
      suffixAdvice: (text) =>
        `Встановіть у сканері суфікс лише Enter (CR) або впишіть «${text}» як суфікс сканера.`,
      codeId: (text) => `Перед кодом надходить ідентифікатор коду «${text}».`,
      codeIdAdvice: 'Вимкніть у сканері «Надсилати Code-ID / AIM-ID».',
      characters: (missing, duplicated, other) => {
        const parts = [
          missing > 0 ? `бракує символів: ${missing}` : '',
          duplicated > 0 ? `подвоєних символів: ${duplicated}` : '',
          other > 0 ? `хибних або зайвих символів: ${other}` : '',
        ]
          .filter((part) => part !== '')
          .join(', ');
        return `${parts.charAt(0).toUpperCase()}${parts.slice(1)}.`;
      },
      charactersAdvice:
        'Увімкніть у сканері «Надсилати символи як події клавіатури» (Zebra DataWedge: «Send characters as events») або встановіть невелику затримку між символами (5–10 мс).',
    },
  },
} satisfies PartialCatalogue;
