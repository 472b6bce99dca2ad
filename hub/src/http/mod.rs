//! The HTTP server: REST API (spec §7), browser WebSocket `/ws`, device WebSocket `/ingest`,
//! Prometheus `/metrics`, and the client files.

pub mod alarm_manager;
pub mod alarms;
pub mod analyses;
pub mod api;
pub mod audit;
pub mod auth;
pub mod bodies;
pub mod browser_ws;
pub mod call;
pub mod caller;
pub mod captures;
pub mod companies;
pub mod compliance;
pub mod device_secrets;
pub mod device_types;
pub mod devices;
pub mod error;
pub mod exports;
pub mod fhir;
pub mod health;
pub mod json;
pub mod layout;
pub mod patients;
pub mod registration;
pub mod reports;
pub mod security_headers;
pub mod server;
pub mod state;
pub mod static_files;
pub mod tare;
pub mod turns;
pub mod ward;
pub mod ward_screens;
pub mod ws_upgrade;

use std::net::SocketAddr;
use std::sync::Arc;

use warp::filters::BoxedFilter;
use warp::{Filter, Reply};

use self::api::Api;
use self::auth::with_state;
use self::call::{ANALYSIS_BODY_LIMIT, DEFAULT_BODY_LIMIT, LOGIN_BODY_LIMIT};
use self::state::AppState;
use crate::api_route;
use crate::ingest::websocket::TRANSPORT_MESSAGE_LIMIT;
use mat_api::company::CompanyInput;
use mat_api::device::{DeviceSettingsInput, RegistrationInput};
use mat_api::layout::LayoutJson;
use mat_api::patient::PatientInput;
use mat_protocol::device_type::{DeviceType, DeviceTypeInfo};
use mat_protocol::scale::PressureScale;

/// Largest browser WebSocket message accepted (browsers send small events).
const BROWSER_MESSAGE_LIMIT: usize = 64 * 1024;

/// Every REST call of spec §7, documented. Paths the spec leaves open are chosen in docs/api.md.
pub fn api(state: &Arc<AppState>) -> Api {
    let mut api = Api::default();
    let s = state;
    let d = DEFAULT_BODY_LIMIT;
    // Authentication and companies.
    api_route!(api, s, POST, LOGIN_BODY_LIMIT, Public, "auth", "/api/auth/login", "Sign in; answers a bearer token", auth::login, "api" / "auth" / "login"; doc.body::<auth::LoginRequest>().json::<auth::LoginResponse>(200).errors(&[401, 429]));
    api_route!(api, s, POST, d, User, "auth", "/api/auth/logout", "Sign out: revoke the caller's token (later calls and sockets with it get 401)", auth::logout, "api" / "auth" / "logout"; doc.empty(204));
    api_route!(api, s, POST, d, Admin, "auth", "/api/auth/signup", "Create a staff user in a company", auth::signup, "api" / "auth" / "signup"; doc.body::<auth::SignupRequest>().json::<auth::CreatedUser>(201).errors(&[404, 409]));
    api_route!(api, s, GET, d, Admin, "auth", "/api/auth/companies", "Every company", companies::list, "api" / "auth" / "companies"; doc.json::<Vec<companies::CompanyJson>>(200));
    api_route!(api, s, GET, d, Admin, "auth", "/api/auth/companiesname", "Every company's name", companies::names, "api" / "auth" / "companiesname"; doc.json::<companies::CompanyNames>(200));
    api_route!(api, s, POST, d, Admin, "auth", "/api/auth/company/register", "Create a company", companies::register, "api" / "auth" / "company" / "register"; doc.body::<CompanyInput>().json::<companies::CompanyJson>(201).errors(&[409]));
    api_route!(api, s, GET, d, Board, "company", "/api/companyUser", "The caller's company and branding", companies::own, "api" / "companyUser"; doc.json::<Vec<companies::CompanyJson>>(200).errors(&[404]));
    api_route!(api, s, PUT, d, Admin, "company", "/api/companyUser", "Save the caller's company's name, address and logo", companies::update_own, "api" / "companyUser"; doc.body::<CompanyInput>().json::<companies::CompanyJson>(200).errors(&[404, 409]));
    api_route!(api, s, GET, d, Board, "company", "/api/companyVariants", "The caller's company's variants (hideCentreOfPressure, fitness, seatingLabels)", companies::variants, "api" / "companyVariants"; doc.json::<companies::VariantsJson>(200).errors(&[404]));
    api_route!(api, s, PUT, d, Admin, "company", "/api/companyVariants", "Switch the caller's company's variants (all three booleans)", companies::set_variants, "api" / "companyVariants"; doc.body::<companies::VariantsJson>().json::<companies::VariantsJson>(200).errors(&[404]));
    api_route!(api, s, GET, d, Admin, "company", "/api/auditLog/{page}", "The audit log of administrative actions about or by the caller's company, newest first, 20 a page; {page} from 1", audit::list, "api" / "auditLog" / String; doc.param_with("page", audit::page_number_schema).json::<audit::AuditPageJson>(200).errors(&[400]));
    api_route!(api, s, GET, d, Admin, "company", "/api/alarmManager", "The company's alarm manager (IHE PCD-04 over MLLP): its settings, the hub-wide default, where reports go, the link's state and the queue", alarm_manager::get, "api" / "alarmManager"; doc.json::<alarm_manager::AlarmManagerJson>(200));
    api_route!(api, s, PUT, d, Admin, "company", "/api/alarmManager", "Set the company's alarm manager (audited)", alarm_manager::put, "api" / "alarmManager"; doc.body::<mat_api::alarm_manager::AlarmManagerInput>().json::<alarm_manager::AlarmManagerJson>(200).errors(&[400]));
    api_route!(api, s, GET, d, Admin, "company", "/api/alarmManager/deadLetters", "The alarm reports the manager refused (AR), newest first", alarm_manager::dead_letters, "api" / "alarmManager" / "deadLetters"; doc.json::<Vec<alarm_manager::DeadLetterJson>>(200));
    api_route!(api, s, POST, d, Admin, "company", "/api/alarmManager/deadLetters/{id}/resend", "Queue a refused alarm report again (audited)", alarm_manager::resend, "api" / "alarmManager" / "deadLetters" / String / "resend"; doc.param::<String>("id").empty(204).errors(&[404]));
    // Devices.
    api_route!(api, s, GET, d, Board, "devices", "/api/deviceTypes", "The device-type table: routes, page families, frame shapes, capabilities", device_types::list, "api" / "deviceTypes"; doc.json::<Vec<DeviceTypeInfo>>(200));
    api_route!(api, s, GET, d, Board, "devices", "/api/pressureScale", "The hub's pressure unit and the units pressures are shown in (mmHg, kPa, the fitness variant's kPa per step)", device_types::pressure_scale, "api" / "pressureScale"; doc.json::<PressureScale>(200));
    api_route!(api, s, GET, d, Board, "devices", "/api/userDevices", "The company's devices (a ward screen's: its unit's)", devices::user_devices, "api" / "userDevices"; doc.json::<Vec<devices::DeviceJson>>(200));
    api_route!(api, s, GET, d, Board, "devices", "/api/deviceConfCompany", "The company's device configurations and live statuses (a ward screen's: its unit's)", devices::device_conf_company, "api" / "deviceConfCompany"; doc.json::<Vec<devices::DeviceConfJson>>(200));
    api_route!(api, s, GET, d, User, "devices", "/api/deviceConfiguration/{id}", "One device's configuration", devices::device_configuration, "api" / "deviceConfiguration" / String; doc.json::<devices::DeviceConfJson>(200));
    api_route!(api, s, PUT, d, User, "devices", "/api/device/{id}", "Rename and relocate a device (name, room, bed)", devices::update, "api" / "device" / String; doc.body::<DeviceSettingsInput>().json::<devices::DeviceJson>(200));
    api_route!(api, s, GET, d, User, "devices", "/api/device/{id}/repositioning", "The repositioning clock: interval, tier and seconds until the next turn is due", devices::get_repositioning, "api" / "device" / String / "repositioning"; doc.json::<devices::RepositioningClock>(200).errors(&[503]));
    api_route!(api, s, PUT, d, User, "devices", "/api/device/{id}/repositioning", "Set the repositioning interval (minutes, null for 2 h)", devices::set_repositioning, "api" / "device" / String / "repositioning"; doc.body::<devices::RepositioningRequest>().json::<devices::RepositioningInterval>(200));
    api_route!(api, s, POST, d, User, "devices", "/api/device/{id}/turns", "Record that the patient was turned (when, new position; by the caller): restarts the repositioning clock, attends an Ulcer Risk alarm, logged", turns::record, "api" / "device" / String / "turns"; doc.body::<mat_api::turn::TurnInput>().json::<turns::TurnRecordedJson>(200).errors(&[503]));
    api_route!(api, s, GET, d, User, "devices", "/api/device/{id}/turns", "The patient's recorded turns on a device, newest first", turns::list, "api" / "device" / String / "turns"; doc.json::<Vec<turns::TurnJson>>(200));
    api_route!(api, s, GET, d, User, "devices", "/api/device/{id}/tare", "The mat's tare: the idle level subtracted from its frames", tare::get, "api" / "device" / String / "tare"; doc.json::<tare::TareJson>(200).errors(&[503]));
    api_route!(api, s, POST, d, Admin, "devices", "/api/device/{id}/tare", "Zero the empty mat: its latest empty frames become its idle level (refused while someone lies on it)", tare::zero, "api" / "device" / String / "tare"; doc.json::<tare::TareJson>(200).errors(&[409, 503]));
    api_route!(api, s, GET, d, User, "devices", "/api/device/obtainList/{company}/{type}/{x}", "The company's devices of a type; x: page of 10, 0 for all", devices::obtain_list, "api" / "device" / "obtainList" / String / String / String; doc.param::<DeviceType>("type").param_with("x", devices::page_or_all_schema).json::<Vec<devices::DeviceJson>>(200).errors(&[400]));
    api_route!(api, s, GET, d, Board, "devices", "/api/wardBoard", "The ward board's clocks: every repositioning clock of the company (a ward screen's: its unit's) (interval, tier, seconds to the next turn) with the latest posture and its confidence", ward::clocks, "api" / "wardBoard"; doc.json::<Vec<ward::WardClockJson>>(200));
    api_route!(api, s, GET, d, Board, "company", "/api/wardSettings", "The company's ward board settings (patients' names in full or as initials)", ward::settings, "api" / "wardSettings"; doc.json::<ward::WardSettingsJson>(200).errors(&[404]));
    api_route!(api, s, PUT, d, Admin, "company", "/api/wardSettings", "Set the company's ward board settings (audited)", ward::set_settings, "api" / "wardSettings"; doc.body::<ward::WardSettingsJson>().json::<ward::WardSettingsJson>(200).errors(&[404]));
    // Turn compliance (issue 23, item 4).
    api_route!(api, s, GET, d, User, "compliance", "/api/compliance/{from}/{to}", "Turn compliance per unit and shift for the shifts starting on the days from to to (YYYY-MM-DD, at most 92 days): share of turns on time, time to attend alarms (mean, 90th percentile), alarms per bed-day, minutes over the interval per patient", compliance::figures, "api" / "compliance" / String / String; doc.param::<String>("from").param::<String>("to").json::<compliance::ComplianceJson>(200).errors(&[400]));
    api_route!(api, s, GET, d, User, "compliance", "/api/compliancePdf/{from}/{to}/{language}", "Turn compliance as a PDF with the company's branding (language: es, el, en, fr, it, nl, ru, ja)", compliance::pdf, "api" / "compliancePdf" / String / String / String; doc.param::<String>("from").param::<String>("to").param::<::reports::Language>("language").pdf(200).errors(&[400]));
    api_route!(api, s, GET, d, User, "compliance", "/api/complianceSettings", "The company's shifts (starts in minutes after local midnight) and time zone", compliance::settings, "api" / "complianceSettings"; doc.json::<compliance::ShiftSettingsJson>(200).errors(&[404]));
    api_route!(api, s, PUT, d, Admin, "compliance", "/api/complianceSettings", "Set the company's shifts and time zone (audited)", compliance::set_settings, "api" / "complianceSettings"; doc.body::<compliance::ShiftSettingsJson>().json::<compliance::ShiftSettingsJson>(200).errors(&[400, 404]));

    api_route!(api, s, POST, d, Admin, "ward", "/api/wardScreens", "A one-time pairing code (5 minutes) for a ward screen showing one unit of the caller's company", ward_screens::create_code, "api" / "wardScreens"; doc.body::<ward_screens::PairingRequest>().json::<ward_screens::PairingCodeJson>(201).errors(&[429]));
    api_route!(api, s, GET, d, Admin, "ward", "/api/wardScreens", "The company's paired ward screens: unit, paired, last seen", ward_screens::list, "api" / "wardScreens"; doc.json::<Vec<ward_screens::BoardScreenJson>>(200));
    api_route!(api, s, POST, LOGIN_BODY_LIMIT, Public, "ward", "/api/wardScreens/pair", "Pair a ward screen with a one-time code; answers its board token (role 3, 30 days; throttled per address)", ward_screens::pair, "api" / "wardScreens" / "pair"; doc.body::<ward_screens::PairRequest>().json::<ward_screens::BoardSessionJson>(200).errors(&[400, 429]));
    api_route!(api, s, POST, d, Board, "ward", "/api/wardScreens/renew", "A paired ward screen's new board token (30 more days); a person's token is refused", ward_screens::renew, "api" / "wardScreens" / "renew"; doc.json::<ward_screens::BoardSessionJson>(200).errors(&[403]));
    api_route!(api, s, DELETE, d, Admin, "ward", "/api/wardScreen/{id}", "Unpair a ward screen (audited): its tokens are refused from now on and its sockets close", ward_screens::unpair, "api" / "wardScreen" / String; doc.param::<String>("id").empty(204));
    api_route!(api, s, GET, d, User, "devices", "/api/ForceDeviceApi/{id}", "A Force Mat's four channels and their sum", devices::force_values, "api" / "ForceDeviceApi" / String; doc.json::<devices::ForceValues>(200).errors(&[400]));
    api_route!(api, s, GET, d, User, "devices", "/api/standard/pressureMapLogs/{serial}", "A device's latest pressure map", devices::pressure_map_log, "api" / "standard" / "pressureMapLogs" / String; doc.json::<devices::PressureMapLog>(200));
    api_route!(api, s, POST, d, Admin, "devices", "/api/device/{id}/secret", "Rotate a device's secret; answers the new one once (the old one stops working, a connected device is disconnected)", device_secrets::rotate, "api" / "device" / String / "secret"; doc.json::<registration::RegisteredDevice>(200).errors(&[409]));
    api_route!(api, s, POST, d, Admin, "registration", "/api/deviceandconfRegistration", "Register a device; answers its one-time secret", registration::register, "api" / "deviceandconfRegistration"; doc.body::<RegistrationInput>().json::<registration::RegisteredDevice>(201).errors(&[404, 409]));
    api_route!(api, s, POST, d, Admin, "registration", "/api/registerAll", "Create a company, its first user and device", registration::register_all, "api" / "registerAll"; doc.body::<registration::RegisterAllRequest>().json::<registration::RegisteredAll>(201).errors(&[409]));
    api_route!(api, s, POST, d, Admin, "registration", "/api/quickRegistration", "Register a device with a generated login", registration::quick_register, "api" / "quickRegistration"; doc.body::<registration::QuickRegistrationRequest>().json::<registration::QuickRegistration>(201).errors(&[404, 409]));
    // Alarms and logs.
    api_route!(api, s, GET, d, User, "alarms", "/api/iotCheckAlarms/{serial}", "'True' while the device has an unattended alarm", alarms::check, "api" / "iotCheckAlarms" / String; doc.json::<alarms::AlarmCheck>(200));
    api_route!(api, s, GET, d, User, "alarms", "/api/iotAlarms/{id}", "A device's alarm log", alarms::list, "api" / "iotAlarms" / String; doc.json::<Vec<alarms::AlarmJson>>(200));
    api_route!(api, s, PUT, d, User, "alarms", "/api/iotAlarms/{id}", "Attend a device's pending alarms", alarms::attend, "api" / "iotAlarms" / String; doc.json::<alarms::Attended>(200).errors(&[503]));
    api_route!(api, s, PUT, d, User, "alarms", "/api/attendAlarm/{serial}", "Attend a sub-device's pending alarms by serial", alarms::attend_by_serial, "api" / "attendAlarm" / String; doc.json::<alarms::Attended>(200).errors(&[503]));
    api_route!(api, s, GET, d, User, "alarms", "/api/iotLogs/{id}", "A device's log", alarms::device_logs, "api" / "iotLogs" / String; doc.json::<Vec<alarms::DeviceLogJson>>(200));
    api_route!(api, s, GET, d, User, "alarms", "/api/presenceLogs/{id}", "A device's entrances and exits", alarms::presence_logs, "api" / "presenceLogs" / String; doc.json::<Vec<alarms::PresenceJson>>(200));
    api_route!(api, s, POST, d, User, "alarms", "/api/iotRequests/{serial}", "Start a remote dynamic capture for the caller's selected patient", captures::start, "api" / "iotRequests" / String; doc.json::<captures::CaptureStarted>(200).errors(&[400, 409, 503]));
    // Analyses.
    let a = ANALYSIS_BODY_LIMIT;
    api_route!(api, s, POST, a, User, "analyses", "/api/podometryAnalysis/{patientId}", "Store a podology, balance, fitting or rehab analysis", analyses::create_podometry, "api" / "podometryAnalysis" / String; doc.body::<analyses::AnalysisInput>().json::<analyses::AnalysisJson>(201).errors(&[409]));
    api_route!(api, s, POST, a, User, "analyses", "/api/seatingAnalysis/{patientId}", "Store a seating analysis", analyses::create_seating, "api" / "seatingAnalysis" / String; doc.body::<analyses::AnalysisInput>().json::<analyses::AnalysisJson>(201).errors(&[409]));
    api_route!(api, s, PUT, d, User, "analyses", "/api/podometryAnalysis/specific/{id}", "Replace an analysis's notes", analyses::update_notes, "api" / "podometryAnalysis" / "specific" / String; doc.body::<analyses::NotesRequest>().json::<analyses::AnalysisJson>(200));
    api_route!(api, s, DELETE, d, User, "analyses", "/api/podometryAnalysis/specific/{id}", "Delete an analysis", analyses::delete, "api" / "podometryAnalysis" / "specific" / String; doc.json::<analyses::Deleted>(200));
    api_route!(api, s, GET, d, User, "analyses", "/api/podometryAnalysisPage/{userId}/{analysisType}/{page}", "A history page of 10", analyses::page, "api" / "podometryAnalysisPage" / String / String / String; doc.param_with("analysisType", analyses::history_type).param_with("page", analyses::page_number_schema).json::<analyses::HistoryPage>(200).errors(&[400]));
    api_route!(api, s, GET, d, User, "analyses", "/api/podometryAnalysisCount/{userId}/{analysisType}", "History totals", analyses::count, "api" / "podometryAnalysisCount" / String / String; doc.param_with("analysisType", analyses::history_type).json::<analyses::HistoryTotals>(200).errors(&[400]));
    api_route!(api, s, GET, d, User, "analyses", "/api/podometryAnalysisPatient/{userId}/{patientId}/{analysisType}/{page}", "A patient's history page of 10", analyses::patient_page, "api" / "podometryAnalysisPatient" / String / String / String / String; doc.param_with("analysisType", analyses::history_type).param_with("page", analyses::page_number_schema).json::<analyses::HistoryPage>(200).errors(&[400]));
    api_route!(api, s, GET, d, User, "analyses", "/api/podometryAnalysisCountPatient/{userId}/{patientId}/{analysisType}", "A patient's history totals", analyses::patient_count, "api" / "podometryAnalysisCountPatient" / String / String / String; doc.param_with("analysisType", analyses::history_type).json::<analyses::HistoryTotals>(200).errors(&[400]));
    api_route!(api, s, GET, d, User, "analyses", "/api/deviceAnalysisPage/{userId}/{deviceId}/{analysisType}/{page}", "A device's history page of 10", analyses::device_page, "api" / "deviceAnalysisPage" / String / String / String / String; doc.param_with("analysisType", analyses::history_type).param_with("page", analyses::page_number_schema).json::<analyses::HistoryPage>(200).errors(&[400]));
    api_route!(api, s, GET, d, User, "analyses", "/api/deviceAnalysisCount/{userId}/{deviceId}/{analysisType}", "A device's history totals", analyses::device_count, "api" / "deviceAnalysisCount" / String / String / String; doc.param_with("analysisType", analyses::history_type).json::<analyses::HistoryTotals>(200).errors(&[400]));
    api_route!(api, s, POST, d, User, "reports", "/api/downloadAnalysisPDF/{id}/{x}", "The analysis report as PDF (layoutOptions: widgets, language, palette)", reports::analysis_pdf, "api" / "downloadAnalysisPDF" / String / String; doc.body::<reports::AnalysisPdfRequest>().pdf(200));
    api_route!(api, s, POST, d, User, "reports", "/api/downloadRealScalePDF/{id}", "The map at real scale on A3 or A4, as PDF", reports::real_scale_pdf, "api" / "downloadRealScalePDF" / String; doc.body::<reports::RealScaleRequest>().pdf(200));
    api_route!(api, s, GET, d, User, "reports", "/api/analysisExport/{id}/{kind}", "Raw-data export (processed or unprocessed) as a JSON file", exports::export, "api" / "analysisExport" / String / String; doc.param_with("kind", exports::export_kind_schema).json::<serde_json::Value>(200).errors(&[400]));
    // Patients.
    api_route!(api, s, GET, d, User, "patients", "/api/podometry/patients/{userId}", "The company's patients", patients::list, "api" / "podometry" / "patients" / String; doc.json::<Vec<patients::PatientJson>>(200));
    api_route!(api, s, POST, d, User, "patients", "/api/podometry/patients/{userId}", "Register a patient", patients::create, "api" / "podometry" / "patients" / String; doc.body::<PatientInput>().json::<patients::PatientJson>(201));
    api_route!(api, s, GET, d, User, "patients", "/api/podometry/patient/select/{userId}", "The caller's selected patient", patients::selected, "api" / "podometry" / "patient" / "select" / String; doc.json::<patients::SelectedPatient>(200));
    api_route!(api, s, PUT, d, User, "patients", "/api/podometry/patient/select/{userId}", "Select a patient", patients::select, "api" / "podometry" / "patient" / "select" / String; doc.body::<patients::SelectRequest>().json::<patients::SelectedPatient>(200));
    api_route!(api, s, PUT, d, User, "patients", "/api/podometry/patient/{patientId}", "Edit a patient", patients::update, "api" / "podometry" / "patient" / String; doc.body::<PatientInput>().json::<patients::PatientJson>(200));
    api_route!(api, s, DELETE, d, Admin, "patients", "/api/podometry/patient/{patientId}", "Delete a patient: their analyses erased, their devices released, audited in the same transaction", patients::delete, "api" / "podometry" / "patient" / String; doc.json::<patients::PatientDeleted>(200));
    api_route!(api, s, GET, d, User, "patients", "/api/podometry/patient/{patientId}/data", "A patient's data (fields, analyses, bedside logs) as one JSON file", patients::data_file, "api" / "podometry" / "patient" / String / "data"; doc.json::<crate::domain::patients::PatientDataFile>(200));
    api_route!(api, s, PUT, d, User, "patients", "/api/device/{id}/patient", "Assign (or release, null) the patient at a bed, seat or room set", patients::set_bedside, "api" / "device" / String / "patient"; doc.body::<patients::BedsideRequest>().json::<patients::BedsidePatient>(200).errors(&[400]));
    // Layout.
    api_route!(api, s, GET, d, User, "layout", "/api/LayoutSettings/{userId}", "The caller's layout settings", layout::get, "api" / "LayoutSettings" / String; doc.json::<LayoutJson>(200));
    api_route!(api, s, PUT, d, User, "layout", "/api/LayoutSettings/{userId}", "Save the caller's layout settings", layout::save, "api" / "LayoutSettings" / String; doc.body::<LayoutJson>().json::<LayoutJson>(200).json::<LayoutJson>(201));
    api_route!(api, s, POST, d, User, "layout", "/api/LayoutSettings/{userId}", "Save the caller's layout settings", layout::save, "api" / "LayoutSettings" / String; doc.body::<LayoutJson>().json::<LayoutJson>(200).json::<LayoutJson>(201));
    api
}

/// Every route of the hub.
pub fn routes(state: Arc<AppState>) -> BoxedFilter<(warp::reply::Response,)> {
    let metrics = {
        let metrics = state.metrics.clone();
        warp::path!("metrics")
            .and(warp::get())
            .map(move || warp::reply::with_header(metrics.render(), "content-type", "text/plain; version=0.0.4").into_response())
    };
    let browser_socket = warp::path!("ws")
        .and(ws_upgrade::upgrade())
        .and(warp::header::optional::<String>("authorization"))
        .and(with_state(state.clone()))
        .map(|ws: ws_upgrade::Upgrade, header: Option<String>, state: Arc<AppState>| {
            let claims = header.as_deref().and_then(|h| h.strip_prefix("Bearer ")).and_then(|t| auth::verify(&state, t).ok());
            ws.on_upgrade(ws_upgrade::socket_config(BROWSER_MESSAGE_LIMIT), move |socket| browser_ws::serve(socket, state, claims))
        });
    let device_socket = warp::path!("ingest").and(ws_upgrade::upgrade()).and(server::remote()).and(with_state(state.clone())).map(
        |ws: ws_upgrade::Upgrade, peer: Option<SocketAddr>, state: Arc<AppState>| {
            let ingest = state.ingest.clone();
            ws.on_upgrade(ws_upgrade::socket_config(TRANSPORT_MESSAGE_LIMIT), move |socket| {
                crate::ingest::websocket::serve(socket, peer, ingest)
            })
        },
    );
    api(&state)
        .into_filter()
        .or(metrics)
        .unify()
        .or(browser_socket)
        .unify()
        .or(device_socket)
        .unify()
        .or(fhir::routes(state.clone()))
        .unify()
        .or(health::routes(state.metrics.clone()))
        .unify()
        .or(static_files::routes(state.client_dir.clone()))
        .unify()
        .recover(error::recover)
        .unify()
        .boxed()
}
