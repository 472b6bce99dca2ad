//! The report's words in the eight interface languages of spec §1 (es, el, en, fr, it, nl, ru,
//! ja). The vendored font is subset to these strings plus whole Latin, Greek, Cyrillic and kana
//! ranges (fonts/README.md), and a test checks that every character here has a glyph.

use serde::{Deserialize, Serialize};

/// A report language (spec §1); `en` is the fallback.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Language {
    Es,
    El,
    #[default]
    En,
    Fr,
    It,
    Nl,
    Ru,
    Ja,
}

impl Language {
    /// All eight, in the spec's order.
    pub const ALL: [Language; 8] =
        [Language::Es, Language::El, Language::En, Language::Fr, Language::It, Language::Nl, Language::Ru, Language::Ja];

    /// Parses a language code; anything unknown falls back to English, as the client does.
    pub fn from_code(code: &str) -> Language {
        match code {
            "es" => Language::Es,
            "el" => Language::El,
            "fr" => Language::Fr,
            "it" => Language::It,
            "nl" => Language::Nl,
            "ru" => Language::Ru,
            "ja" => Language::Ja,
            _ => Language::En,
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// Every phrase the reports print.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Text {
    ReportTitle,
    RealScaleTitle,
    Patient,
    NoPatient,
    Height,
    Weight,
    Date,
    Device,
    Analysis,
    Static,
    Dynamic,
    Balance,
    SeatingDynamic,
    Fitting,
    Rehab,
    Results,
    PressureMap,
    Histogram,
    Notes,
    LeftFoot,
    RightFoot,
    CenterOfPressure,
    LoadDistribution,
    Surface,
    MaxPressure,
    MeanPressure,
    ActivePoints,
    EdgeWarning,
    Rockers,
    SwayPath,
    MeanVelocity,
    EllipseArea,
    PeakPressureIndex,
    DispersionIndex,
    PushUps,
    DistanceToCentre,
    Good,
    Bad,
    Uncomplete,
    Duration,
    Bmi,
    PrintActualSize,
    Clipped,
    Page,
    RockersNoStance,
    RockersOutOfOrder,
    ContactArea,
    FrontBack,
    Steps,
    Step,
    StepTimes,
    StanceTime,
    InsideRing,
    BodyRegions,
    RegionHead,
    RegionShoulders,
    RegionBack,
    RegionSacrum,
    RegionLegs,
    RegionHeels,
    Peak,
    Mean,
    AxisLeftRight,
    AxisFrontBack,
    Region,
    LoadLeftRight,
    LoadFrontBack,
    IschialLeft,
    IschialRight,
    PressureScaleLabel,
    /// A weighed patient's calibration: `{{share}}` and `{{weight}}` filled in ([`weight_basis`]).
    /// This phrase and the other three of the pressure scale are the client's
    /// `analysis.pressureBasis.*` and `units.fitnessScale`, word for word (a test compares them).
    WeightBasis,
    SensorBasis,
    FitnessBasis,
    ComplianceTitle,
    Period,
    TimeZone,
    Unit,
    NoUnit,
    /// A unit's label: `{{building}}` and `{{floor}}` filled in ([`unit_label`]); the client's
    /// `ward.unitLabel`, word for word (a test compares them).
    UnitLabel,
    Shift,
    /// The heading of a list of several shifts.
    Shifts,
    Beds,
    Turns,
    OnTime,
    AttendMean,
    AttendP90,
    Alarms,
    AlarmsPerBedDay,
    MinutesOverPerPatient,
    MinutesUnit,
    /// The second's symbol: the client's `units.seconds` (and its `capture.seconds`).
    SecondsUnit,
    ComplianceNote,
    NoBeds,
    /// Under a walk's map: what its colours are (each cell's highest pressure over the walk).
    PeakMapCaption,
    /// A bed's dynamic capture (stored as `seatingDynamic`): the client's
    /// `analysis.types.bedDynamic`, word for word (a test compares them).
    BedDynamic,
    /// The title of a dynamic capture's page of charts over time.
    OverTheCapture,
    /// The title of its chart of the maximum and mean pressure.
    Pressure,
    /// A lying body's centre of pressure along it (the bed's "front–back").
    AxisHeadFeet,
    /// The share of the load on each side, over time: the client's `analysis.seating.laterality`,
    /// word for word, as are the next two (`left`, `right`).
    Laterality,
    Left,
    Right,
}

/// Rows in [`Text`] order, columns in [`Language::ALL`] order.
const TEXTS: [[&str; 8]; 101] = [
    [
        "Informe de análisis",
        "Αναφορά ανάλυσης",
        "Analysis report",
        "Rapport d'analyse",
        "Rapporto di analisi",
        "Analyserapport",
        "Отчёт об анализе",
        "解析レポート",
    ],
    [
        "Mapa de presión a escala real",
        "Χάρτης πίεσης σε πραγματική κλίμακα",
        "Real-scale pressure map",
        "Carte de pression à l'échelle réelle",
        "Mappa di pressione in scala reale",
        "Drukkaart op ware grootte",
        "Карта давления в натуральную величину",
        "実寸大圧力マップ",
    ],
    ["Paciente", "Ασθενής", "Patient", "Patient", "Paziente", "Patiënt", "Пациент", "患者"],
    [
        "Ningún paciente seleccionado",
        "Δεν έχει επιλεγεί ασθενής",
        "No patient selected",
        "Aucun patient sélectionné",
        "Nessun paziente selezionato",
        "Geen patiënt geselecteerd",
        "Пациент не выбран",
        "患者が選択されていません",
    ],
    ["Altura", "Ύψος", "Height", "Taille", "Altezza", "Lengte", "Рост", "身長"],
    ["Peso", "Βάρος", "Weight", "Poids", "Peso", "Gewicht", "Вес", "体重"],
    ["Fecha", "Ημερομηνία", "Date", "Date", "Data", "Datum", "Дата", "日付"],
    ["Dispositivo", "Συσκευή", "Device", "Appareil", "Dispositivo", "Apparaat", "Устройство", "デバイス"],
    ["Análisis", "Ανάλυση", "Analysis", "Analyse", "Analisi", "Analyse", "Анализ", "解析"],
    [
        "Análisis estático",
        "Στατική ανάλυση",
        "Static analysis",
        "Analyse statique",
        "Analisi statica",
        "Statische analyse",
        "Статический анализ",
        "静的解析",
    ],
    [
        "Análisis dinámico",
        "Δυναμική ανάλυση",
        "Dynamic analysis",
        "Analyse dynamique",
        "Analisi dinamica",
        "Dynamische analyse",
        "Динамический анализ",
        "動的解析",
    ],
    ["Equilibrio", "Ισορροπία", "Balance", "Équilibre", "Equilibrio", "Evenwicht", "Равновесие", "バランス"],
    [
        "Análisis de sedestación",
        "Ανάλυση καθίσματος",
        "Seating analysis",
        "Analyse d'assise",
        "Analisi della seduta",
        "Zitanalyse",
        "Анализ сидения",
        "座位解析",
    ],
    ["Ajuste", "Προσαρμογή", "Fitting", "Ajustement", "Adattamento", "Afstelling", "Подгонка", "フィッティング"],
    ["Rehabilitación", "Αποκατάσταση", "Rehabilitation", "Rééducation", "Riabilitazione", "Revalidatie", "Реабилитация", "リハビリ"],
    ["Resultados", "Αποτελέσματα", "Results", "Résultats", "Risultati", "Resultaten", "Результаты", "結果"],
    [
        "Mapa de presión",
        "Χάρτης πίεσης",
        "Pressure map",
        "Carte de pression",
        "Mappa di pressione",
        "Drukkaart",
        "Карта давления",
        "圧力マップ",
    ],
    [
        "Histograma de presión",
        "Ιστόγραμμα πίεσης",
        "Pressure histogram",
        "Histogramme de pression",
        "Istogramma della pressione",
        "Drukhistogram",
        "Гистограмма давления",
        "圧力ヒストグラム",
    ],
    ["Notas", "Σημειώσεις", "Notes", "Notes", "Note", "Notities", "Заметки", "メモ"],
    ["Pie izquierdo", "Αριστερό πόδι", "Left foot", "Pied gauche", "Piede sinistro", "Linkervoet", "Левая стопа", "左足"],
    ["Pie derecho", "Δεξί πόδι", "Right foot", "Pied droit", "Piede destro", "Rechtervoet", "Правая стопа", "右足"],
    [
        "Centro de presión",
        "Κέντρο πίεσης",
        "Centre of pressure",
        "Centre de pression",
        "Centro di pressione",
        "Drukpunt",
        "Центр давления",
        "圧力中心",
    ],
    [
        "Distribución de carga",
        "Κατανομή φορτίου",
        "Load distribution",
        "Répartition de la charge",
        "Distribuzione del carico",
        "Belastingverdeling",
        "Распределение нагрузки",
        "荷重分布",
    ],
    ["Superficie", "Επιφάνεια", "Surface", "Surface", "Superficie", "Oppervlak", "Площадь", "面積"],
    [
        "Presión máxima",
        "Μέγιστη πίεση",
        "Maximum pressure",
        "Pression maximale",
        "Pressione massima",
        "Maximale druk",
        "Максимальное давление",
        "最大圧力",
    ],
    [
        "Presión media",
        "Μέση πίεση",
        "Mean pressure",
        "Pression moyenne",
        "Pressione media",
        "Gemiddelde druk",
        "Среднее давление",
        "平均圧力",
    ],
    ["Puntos activos", "Ενεργά σημεία", "Active points", "Points actifs", "Punti attivi", "Actieve punten", "Активные точки", "有効点"],
    [
        "La huella toca el borde: repita el análisis",
        "Το αποτύπωμα αγγίζει την άκρη: επαναλάβετε την ανάλυση",
        "The footprint touches the edge: repeat the analysis",
        "L'empreinte touche le bord : refaites l'analyse",
        "L'impronta tocca il bordo: ripetere l'analisi",
        "De voetafdruk raakt de rand: herhaal de analyse",
        "Отпечаток касается края: повторите анализ",
        "足跡が端に触れています：解析をやり直してください",
    ],
    [
        "Rodillos (talón / tobillo / antepié)",
        "Κύλιση (πτέρνα / αστράγαλος / πρόσθιο πόδι)",
        "Rockers (heel / ankle / forefoot)",
        "Pivots (talon / cheville / avant-pied)",
        "Rocker (tallone / caviglia / avampiede)",
        "Rockers (hiel / enkel / voorvoet)",
        "Перекаты (пятка / голеностоп / передний отдел)",
        "ロッカー（踵／足関節／前足部）",
    ],
    [
        "Recorrido del balanceo",
        "Διαδρομή ταλάντωσης",
        "Sway path",
        "Trajet d'oscillation",
        "Percorso di oscillazione",
        "Zwaaitraject",
        "Путь колебаний",
        "動揺経路長",
    ],
    [
        "Velocidad media",
        "Μέση ταχύτητα",
        "Mean velocity",
        "Vitesse moyenne",
        "Velocità media",
        "Gemiddelde snelheid",
        "Средняя скорость",
        "平均速度",
    ],
    [
        "Área de la elipse del 95 %",
        "Εμβαδόν ελλείψεως 95 %",
        "95 % ellipse area",
        "Aire de l'ellipse à 95 %",
        "Area dell'ellisse al 95 %",
        "Oppervlak van de 95%-ellips",
        "Площадь эллипса 95 %",
        "95 %楕円面積",
    ],
    [
        "Índice de presión máxima",
        "Δείκτης μέγιστης πίεσης",
        "Peak Pressure Index",
        "Indice de pression maximale",
        "Indice di picco di pressione",
        "Piekdrukindex",
        "Индекс пикового давления",
        "ピーク圧力指数",
    ],
    [
        "Índice de dispersión",
        "Δείκτης διασποράς",
        "Dispersion Index",
        "Indice de dispersion",
        "Indice di dispersione",
        "Dispersie-index",
        "Индекс рассеяния",
        "分散指数",
    ],
    ["Pulsiones", "Ανυψώσεις", "Push-ups", "Soulèvements", "Sollevamenti", "Opdrukbewegingen", "Приподнимания", "プッシュアップ"],
    [
        "Distancia al centro",
        "Απόσταση από το κέντρο",
        "Distance to the centre",
        "Distance au centre",
        "Distanza dal centro",
        "Afstand tot het midden",
        "Расстояние до центра",
        "中心までの距離",
    ],
    ["Bien", "Καλό", "Good", "Bon", "Buono", "Goed", "Хорошо", "良好"],
    ["Mal", "Κακό", "Bad", "Mauvais", "Scarso", "Slecht", "Плохо", "不良"],
    ["Incompleto", "Ατελές", "Uncomplete", "Incomplet", "Incompleto", "Onvolledig", "Не завершено", "未完了"],
    ["Duración", "Διάρκεια", "Duration", "Durée", "Durata", "Duur", "Длительность", "時間"],
    ["IMC", "ΔΜΣ", "BMI", "IMC", "IMC", "BMI", "ИМТ", "BMI"],
    [
        "Imprima a tamaño real (100 %): la barra debe medir 10 cm",
        "Εκτυπώστε σε πραγματικό μέγεθος (100 %): η γραμμή πρέπει να μετρά 10 cm",
        "Print at actual size (100 %): the bar must measure 10 cm",
        "Imprimez en taille réelle (100 %) : la barre doit mesurer 10 cm",
        "Stampare a grandezza reale (100 %): la barra deve misurare 10 cm",
        "Druk af op ware grootte (100 %): de balk moet 10 cm meten",
        "Печатайте в натуральную величину (100 %): полоса должна иметь длину 10 см",
        "実際のサイズ（100 %）で印刷してください：バーは10 cmになります",
    ],
    [
        "La huella es mayor que el papel: se imprime en partes, cada una a tamaño real",
        "Το αποτύπωμα είναι μεγαλύτερο από το χαρτί: τυπώνεται σε τμήματα, το καθένα σε πραγματικό μέγεθος",
        "The footprint is larger than the paper: it is printed in parts, each at real scale",
        "L'empreinte dépasse le papier : elle est imprimée en plusieurs parties, chacune à l'échelle réelle",
        "L'impronta è più grande del foglio: si stampa in parti, ciascuna in scala reale",
        "De afdruk is groter dan het papier: hij wordt in delen afgedrukt, elk op ware grootte",
        "Отпечаток больше листа: он печатается частями, каждая в натуральную величину",
        "圧痕が用紙より大きいため、実寸大で分割して印刷します",
    ],
    ["Página", "Σελίδα", "Page", "Page", "Pagina", "Pagina", "Страница", "ページ"],
    [
        "No se pueden calcular los rodillos: contacto insuficiente",
        "Δεν είναι δυνατός ο υπολογισμός της κύλισης: ανεπαρκής επαφή",
        "Rockers cannot be computed: too little contact",
        "Pivots non calculables : contact insuffisant",
        "Rocker non calcolabili: contatto insufficiente",
        "Rockers niet te berekenen: te weinig contact",
        "Перекаты не вычисляются: недостаточный контакт",
        "ロッカーを計算できません：接地が不足しています",
    ],
    [
        "No se pueden calcular los rodillos: eventos de la marcha fuera de orden",
        "Δεν είναι δυνατός ο υπολογισμός της κύλισης: λανθασμένη σειρά συμβάντων βάδισης",
        "Rockers cannot be computed: gait events out of order",
        "Pivots non calculables : événements de la marche dans le désordre",
        "Rocker non calcolabili: eventi del passo fuori ordine",
        "Rockers niet te berekenen: loopgebeurtenissen in verkeerde volgorde",
        "Перекаты не вычисляются: нарушен порядок событий шага",
        "ロッカーを計算できません：歩行イベントの順序が不正です",
    ],
    [
        "Área de contacto",
        "Επιφάνεια επαφής",
        "Contact area",
        "Surface de contact",
        "Area di contatto",
        "Contactoppervlak",
        "Площадь контакта",
        "接触面積",
    ],
    ["delante / detrás", "μπρος / πίσω", "front / back", "avant / arrière", "avanti / dietro", "voor / achter", "перед / зад", "前 / 後"],
    ["Pasos", "Βήματα", "Steps", "Pas", "Passi", "Stappen", "Шаги", "歩数"],
    ["Paso", "Βήμα", "Step", "Pas", "Passo", "Stap", "Шаг", "歩"],
    [
        "Contacto → despegue (apoyo)",
        "Επαφή → αποκόλληση (στήριξη)",
        "Contact → toe-off (stance)",
        "Contact → décollement (appui)",
        "Contatto → distacco (appoggio)",
        "Contact → afzet (standfase)",
        "Контакт → отрыв (опора)",
        "接地 → 離地（立脚）",
    ],
    [
        "Tiempo de apoyo medio",
        "Μέσος χρόνος στήριξης",
        "Mean stance time",
        "Temps d'appui moyen",
        "Tempo medio di appoggio",
        "Gemiddelde standfase",
        "Среднее время опоры",
        "平均立脚時間",
    ],
    ["Dentro del anillo", "Εντός δακτυλίου", "Inside ring", "Dans l'anneau", "Dentro l'anello", "Binnen ring", "Внутри кольца", "リング内"],
    [
        "Regiones del cuerpo",
        "Περιοχές σώματος",
        "Body regions",
        "Régions du corps",
        "Regioni del corpo",
        "Lichaamsregio's",
        "Области тела",
        "身体部位",
    ],
    ["Cabeza", "Κεφάλι", "Head", "Tête", "Testa", "Hoofd", "Голова", "頭部"],
    ["Hombros", "Ώμοι", "Shoulders", "Épaules", "Spalle", "Schouders", "Плечи", "肩"],
    ["Espalda", "Πλάτη", "Back", "Dos", "Schiena", "Rug", "Спина", "背中"],
    [
        "Sacro y pelvis",
        "Ιερό οστό και λεκάνη",
        "Sacrum and pelvis",
        "Sacrum et bassin",
        "Sacro e bacino",
        "Heiligbeen en bekken",
        "Крестец и таз",
        "仙骨・骨盤",
    ],
    ["Piernas", "Πόδια (κνήμες)", "Legs", "Jambes", "Gambe", "Benen", "Ноги", "脚"],
    ["Talones", "Φτέρνες", "Heels", "Talons", "Talloni", "Hielen", "Пятки", "踵"],
    ["Máx.", "Μέγ.", "Peak", "Max.", "Max", "Max.", "Макс.", "最大"],
    ["Media", "Μέση", "Mean", "Moyenne", "Media", "Gem.", "Среднее", "平均"],
    [
        "Izquierda–derecha (cm)",
        "Αριστερά–δεξιά (cm)",
        "Left–right (cm)",
        "Gauche–droite (cm)",
        "Sinistra–destra (cm)",
        "Links–rechts (cm)",
        "Влево–вправо (см)",
        "左右 (cm)",
    ],
    [
        "Delante–detrás (cm)",
        "Μπρος–πίσω (cm)",
        "Front–back (cm)",
        "Avant–arrière (cm)",
        "Avanti–dietro (cm)",
        "Voor–achter (cm)",
        "Вперёд–назад (см)",
        "前後 (cm)",
    ],
    ["Región", "Περιοχή", "Region", "Région", "Regione", "Regio", "Область", "部位"],
    [
        "Carga izquierda / derecha",
        "Φορτίο αριστερά / δεξιά",
        "Load left / right",
        "Charge gauche / droite",
        "Carico sinistra / destra",
        "Belasting links / rechts",
        "Нагрузка слева / справа",
        "左右の荷重",
    ],
    [
        "Carga delante / detrás",
        "Φορτίο μπρος / πίσω",
        "Load front / back",
        "Charge avant / arrière",
        "Carico avanti / dietro",
        "Belasting voor / achter",
        "Нагрузка спереди / сзади",
        "前後の荷重",
    ],
    [
        "Pico isquiático izquierdo",
        "Αριστερή ισχιακή κορυφή",
        "Left ischial peak",
        "Pic ischiatique gauche",
        "Picco ischiatico sinistro",
        "Linker zitbeenpiek",
        "Левый седалищный пик",
        "左坐骨ピーク",
    ],
    [
        "Pico isquiático derecho",
        "Δεξιά ισχιακή κορυφή",
        "Right ischial peak",
        "Pic ischiatique droit",
        "Picco ischiatico destro",
        "Rechter zitbeenpiek",
        "Правый седалищный пик",
        "右坐骨ピーク",
    ],
    [
        "Escala de presión",
        "Κλίμακα πίεσης",
        "Pressure scale",
        "Échelle de pression",
        "Scala di pressione",
        "Drukschaal",
        "Шкала давления",
        "圧力スケール",
    ],
    [
        "Peso del paciente: {{share}} % de {{weight}} kg sobre la superficie",
        "Βάρος ασθενούς: {{share}} % των {{weight}} kg στην επιφάνεια",
        "Patient's weight: {{share}} % of {{weight}} kg on the surface",
        "Poids du patient : {{share}} % de {{weight}} kg sur la surface",
        "Peso del paziente: {{share}} % di {{weight}} kg sulla superficie",
        "Gewicht van de patiënt: {{share}} % van {{weight}} kg op het oppervlak",
        "Вес пациента: {{share}} % от {{weight}} кг на поверхности",
        "患者の体重：{{weight}} kg の {{share}} % が面に掛かる",
    ],
    [
        "Escala documentada del sensor",
        "Τεκμηριωμένη κλίμακα αισθητήρα",
        "Sensor's documented scale",
        "Échelle documentée du capteur",
        "Scala documentata del sensore",
        "Gedocumenteerde schaal van de sensor",
        "Документированная шкала датчика",
        "センサーの公称スケール",
    ],
    [
        "kPa (escala fitness)",
        "kPa (κλίμακα fitness)",
        "kPa (fitness scale)",
        "kPa (échelle fitness)",
        "kPa (scala fitness)",
        "kPa (fitnessschaal)",
        "кПа (шкала фитнеса)",
        "kPa（フィットネス尺度）",
    ],
    [
        "Cumplimiento de cambios posturales",
        "Συμμόρφωση αλλαγών θέσης",
        "Turn compliance",
        "Respect des changements de position",
        "Rispetto dei cambi di postura",
        "Naleving van wisselliggingen",
        "Соблюдение графика поворотов",
        "体位変換の遵守状況",
    ],
    ["Periodo", "Περίοδος", "Period", "Période", "Periodo", "Periode", "Период", "期間"],
    ["Zona horaria", "Ζώνη ώρας", "Time zone", "Fuseau horaire", "Fuso orario", "Tijdzone", "Часовой пояс", "タイムゾーン"],
    ["Unidad", "Μονάδα", "Unit", "Unité", "Reparto", "Afdeling", "Отделение", "病棟"],
    ["Sin unidad", "Χωρίς μονάδα", "No unit", "Sans unité", "Senza reparto", "Zonder afdeling", "Без отделения", "病棟なし"],
    [
        "{{building}} · planta {{floor}}",
        "{{building}} · όροφος {{floor}}",
        "{{building}} · floor {{floor}}",
        "{{building}} · étage {{floor}}",
        "{{building}} · piano {{floor}}",
        "{{building}} · verdieping {{floor}}",
        "{{building}} · этаж {{floor}}",
        "{{building}} · {{floor}}階",
    ],
    ["Turno", "Βάρδια", "Shift", "Poste", "Turno", "Dienst", "Смена", "勤務帯"],
    ["Turnos", "Βάρδιες", "Shifts", "Postes", "Turni", "Diensten", "Смены", "勤務帯"],
    ["Camas", "Κλίνες", "Beds", "Lits", "Letti", "Bedden", "Койки", "病床数"],
    [
        "Cambios posturales",
        "Αλλαγές θέσης",
        "Turns",
        "Changements de position",
        "Cambi di postura",
        "Wisselliggingen",
        "Повороты",
        "体位変換",
    ],
    ["A tiempo", "Εγκαίρως", "On time", "À l'heure", "In tempo", "Op tijd", "Вовремя", "時間内"],
    [
        "Tiempo de atención, media",
        "Χρόνος ανταπόκρισης, μέσος",
        "Time to attend, mean",
        "Délai de prise en charge, moyenne",
        "Tempo di intervento, media",
        "Tijd tot opvolging, gemiddeld",
        "Время реакции, среднее",
        "対応時間（平均）",
    ],
    [
        "Tiempo de atención, percentil 90",
        "Χρόνος ανταπόκρισης, 90ό εκατοστημόριο",
        "Time to attend, 90th percentile",
        "Délai de prise en charge, 90e centile",
        "Tempo di intervento, 90° percentile",
        "Tijd tot opvolging, 90e percentiel",
        "Время реакции, 90-й процентиль",
        "対応時間（90パーセンタイル）",
    ],
    ["Alarmas", "Συναγερμοί", "Alarms", "Alarmes", "Allarmi", "Alarmen", "Тревоги", "アラーム"],
    [
        "Alarmas por cama-día",
        "Συναγερμοί ανά κλινοημέρα",
        "Alarms per bed-day",
        "Alarmes par journée-lit",
        "Allarmi per giorno-letto",
        "Alarmen per ligdag",
        "Тревоги на койко-день",
        "病床日あたりのアラーム",
    ],
    [
        "Minutos sobre el intervalo por paciente",
        "Λεπτά πέραν του διαστήματος ανά ασθενή",
        "Minutes over the interval per patient",
        "Minutes au-delà de l'intervalle par patient",
        "Minuti oltre l'intervallo per paziente",
        "Minuten boven het interval per patiënt",
        "Минуты сверх интервала на пациента",
        "患者あたりの間隔超過（分）",
    ],
    ["min", "λεπ.", "min", "min", "min", "min", "мин", "分"],
    ["s", "s", "s", "s", "s", "s", "с", "秒"],
    [
        "Un cambio postural, registrado por enfermería o detectado por el colchón, es a tiempo si llegó antes de que venciera el intervalo de reposicionamiento. Los tiempos de atención cuentan solo las alarmas atendidas; camas-día = camas × horas del turno ÷ 24.",
        "Μια αλλαγή θέσης, καταγεγραμμένη από νοσηλευτή ή ανιχνευμένη από το στρώμα, είναι εγκαίρως όταν έγινε πριν λήξει το διάστημα επανατοποθέτησης. Οι χρόνοι ανταπόκρισης μετρούν μόνο τους συναγερμούς που απαντήθηκαν· κλινοημέρες = κλίνες × ώρες βάρδιας ÷ 24.",
        "A turn, recorded by a nurse or detected by the mat, is on time when it came before the repositioning interval elapsed. Times to attend count attended alarms only; bed-days = beds × shift hours ÷ 24.",
        "Un changement de position, saisi par un soignant ou détecté par le matelas, est à l'heure s'il a eu lieu avant la fin de l'intervalle de repositionnement. Les délais ne comptent que les alarmes prises en charge ; journées-lit = lits × heures du poste ÷ 24.",
        "Un cambio di postura, registrato dall'infermiere o rilevato dal materasso, è in tempo se è avvenuto prima che scadesse l'intervallo di riposizionamento. I tempi di intervento contano solo gli allarmi gestiti; giorni-letto = letti × ore del turno ÷ 24.",
        "Een wisselligging, vastgelegd door een verpleegkundige of gedetecteerd door de mat, is op tijd als die vóór het einde van het wisselinterval kwam. Tijden tot opvolging tellen alleen opgevolgde alarmen; ligdagen = bedden × dienuren ÷ 24.",
        "Поворот, отмеченный медсестрой или распознанный матрасом, выполнен вовремя, если он был до истечения интервала. Время реакции учитывает только принятые тревоги; койко-дни = койки × часы смены ÷ 24.",
        "体位変換（看護師の記録またはマットの検出）は、体位変換間隔が経過する前であれば時間内です。対応時間は対応済みのアラームのみを数えます。病床日＝病床数×勤務時間÷24。",
    ],
    [
        "Ninguna cama en este periodo",
        "Καμία κλίνη σε αυτή την περίοδο",
        "No beds in this period",
        "Aucun lit sur cette période",
        "Nessun letto in questo periodo",
        "Geen bedden in deze periode",
        "Нет коек за этот период",
        "この期間の病床はありません",
    ],
    [
        "Presión máxima de cada celda durante la marcha",
        "Μέγιστη πίεση κάθε κελιού κατά τη βάδιση",
        "Highest pressure of each cell during the walk",
        "Pression maximale de chaque cellule pendant la marche",
        "Pressione massima di ogni cella durante il cammino",
        "Hoogste druk per cel tijdens het lopen",
        "Наибольшее давление каждой ячейки за время ходьбы",
        "歩行中の各セルの最大圧力",
    ],
    [
        "Presión a lo largo del tiempo",
        "Πίεση στον χρόνο",
        "Pressure over time",
        "Pression au fil du temps",
        "Pressione nel tempo",
        "Druk in de tijd",
        "Давление во времени",
        "圧力の経時変化",
    ],
    [
        "A lo largo de la captura",
        "Κατά την καταγραφή",
        "Over the capture",
        "Au fil de la capture",
        "Nel corso dell'acquisizione",
        "Tijdens de opname",
        "В ходе записи",
        "時間経過",
    ],
    ["Presión", "Πίεση", "Pressure", "Pression", "Pressione", "Druk", "Давление", "圧力"],
    [
        "Cabeza–pies (cm)",
        "Κεφάλι–πόδια (cm)",
        "Head–feet (cm)",
        "Tête–pieds (cm)",
        "Testa–piedi (cm)",
        "Hoofd–voeten (cm)",
        "Голова–ноги (см)",
        "頭–足 (cm)",
    ],
    ["Lateralidad", "Πλευρικότητα", "Laterality", "Latéralité", "Lateralità", "Lateraliteit", "Латеральность", "左右差"],
    ["Izquierda", "Αριστερά", "Left", "Gauche", "Sinistra", "Links", "Слева", "左"],
    ["Derecha", "Δεξιά", "Right", "Droite", "Destra", "Rechts", "Справа", "右"],
];

/// The phrase `text` in `language`.
pub fn text(language: Language, text: Text) -> &'static str {
    TEXTS[text as usize][language.index()]
}

/// A ward unit's label in `language` ("Main · floor 1"), as the web page writes it: a missing
/// building or floor is "—" (`client/src/features/compliance/CompliancePage.tsx`).
pub fn unit_label(language: Language, building: &str, floor: &str) -> String {
    let or_dash = |s: &str| if s.trim().is_empty() { "—".to_owned() } else { s.to_owned() };
    text(language, Text::UnitLabel).replace("{{building}}", &or_dash(building)).replace("{{floor}}", &or_dash(floor))
}

/// The pressure scale of a weighed patient's result: `share` % of `weight` kg bear on the surface
/// (spec §9's 0.7 of the given weight), both numbers already formatted for `language`.
pub fn weight_basis(language: Language, share: &str, weight: &str) -> String {
    text(language, Text::WeightBasis).replace("{{share}}", share).replace("{{weight}}", weight)
}

/// Every phrase of every language (the font subset and its test read this).
pub fn all_texts() -> impl Iterator<Item = &'static str> {
    TEXTS.iter().flat_map(|row| row.iter().copied())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each language with the client's catalogue of it (`client/public/local/{code}/translation.json`):
    /// the phrases the PDF shares with the pages are held to it word for word.
    fn client_catalogues() -> impl Iterator<Item = (Language, serde_json::Value)> {
        ["es", "el", "en", "fr", "it", "nl", "ru", "ja"].into_iter().zip(Language::ALL).map(|(code, lang)| {
            let path = format!("{}/../client/public/local/{code}/translation.json", env!("CARGO_MANIFEST_DIR"));
            (lang, serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap())
        })
    }

    /// The PDF labels a unit as the web page does: the same template in each language as the
    /// client's `ward.unitLabel`.
    #[test]
    fn the_unit_label_is_the_pages_word_for_word() {
        for (lang, json) in client_catalogues() {
            assert_eq!(json["ward"]["unitLabel"].as_str(), Some(text(lang, Text::UnitLabel)), "{lang:?}");
        }
        assert_eq!(unit_label(Language::En, "Main", "1"), "Main · floor 1");
        assert_eq!(unit_label(Language::Ja, "Main", "1"), "Main · 1階");
        assert_eq!(unit_label(Language::Es, "", "2"), "— · planta 2");
    }

    /// The PDF names a result's pressure scale as the result's page does: the client's
    /// `analysis.pressureBasis` label, weight and sensor phrases and `units.fitnessScale`.
    #[test]
    fn the_pressure_scale_is_the_pages_word_for_word() {
        for (lang, json) in client_catalogues() {
            let basis = &json["analysis"]["pressureBasis"];
            assert_eq!(basis["label"].as_str(), Some(text(lang, Text::PressureScaleLabel)), "{lang:?}");
            assert_eq!(basis["weight"].as_str(), Some(text(lang, Text::WeightBasis)), "{lang:?}");
            assert_eq!(basis["sensor"].as_str(), Some(text(lang, Text::SensorBasis)), "{lang:?}");
            assert_eq!(json["units"]["fitnessScale"].as_str(), Some(text(lang, Text::FitnessBasis)), "{lang:?}");
        }
        assert_eq!(weight_basis(Language::En, "70", "64.5"), "Patient's weight: 70 % of 64.5 kg on the surface");
        assert_eq!(weight_basis(Language::Ja, "70", "64.5"), "患者の体重：64.5 kg の 70 % が面に掛かる");
    }

    /// Times and durations carry the page's units: the client's `compliance.minutesUnit` and
    /// `units.seconds`, and the second of its `capture.seconds`.
    #[test]
    fn minutes_and_seconds_are_the_pages_units() {
        for (lang, json) in client_catalogues() {
            assert_eq!(json["compliance"]["minutesUnit"].as_str(), Some(text(lang, Text::MinutesUnit)), "{lang:?}");
            assert_eq!(json["units"]["seconds"].as_str(), Some(text(lang, Text::SecondsUnit)), "{lang:?}");
            let capture = format!("{{{{seconds}}}} {}", text(lang, Text::SecondsUnit));
            assert_eq!(json["capture"]["seconds"].as_str(), Some(capture.as_str()), "{lang:?}");
        }
    }

    /// A dynamic capture's sides are named as its plot panels name them.
    #[test]
    fn the_sides_over_time_are_named_as_the_pages_plot_panels() {
        for (lang, json) in client_catalogues() {
            let seating = &json["analysis"]["seating"];
            assert_eq!(seating["laterality"].as_str(), Some(text(lang, Text::Laterality)), "{lang:?}");
            assert_eq!(seating["left"].as_str(), Some(text(lang, Text::Left)), "{lang:?}");
            assert_eq!(seating["right"].as_str(), Some(text(lang, Text::Right)), "{lang:?}");
        }
    }

    /// A bed's dynamic capture is named as its history card names it.
    #[test]
    fn a_bed_s_dynamic_capture_is_named_as_the_page_names_it() {
        for (lang, json) in client_catalogues() {
            assert_eq!(json["analysis"]["types"]["bedDynamic"].as_str(), Some(text(lang, Text::BedDynamic)), "{lang:?}");
        }
    }

    #[test]
    fn every_language_has_every_phrase_and_they_differ_where_expected() {
        assert_eq!(TEXTS.len(), Text::Right as usize + 1, "the last phrase closes the table");
        for row in TEXTS {
            assert!(row.iter().all(|t| !t.is_empty()));
        }
        assert_eq!(text(Language::En, Text::ReportTitle), "Analysis report");
        assert_eq!(text(Language::Ja, Text::ReportTitle), "解析レポート");
        assert_eq!(text(Language::El, Text::Notes), "Σημειώσεις");
        assert_eq!(text(Language::Ru, Text::Patient), "Пациент");
    }

    #[test]
    fn codes_parse_with_english_fallback() {
        for (code, lang) in ["es", "el", "en", "fr", "it", "nl", "ru", "ja"].into_iter().zip(Language::ALL) {
            assert_eq!(Language::from_code(code), lang);
            assert_eq!(serde_json::to_value(lang).unwrap(), code);
        }
        assert_eq!(Language::from_code("de"), Language::En);
    }
}
