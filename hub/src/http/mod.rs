//! The HTTP server: REST API (spec §7), browser WebSocket `/ws`, device WebSocket `/ingest`,
//! Prometheus `/metrics`, and the client files.

pub mod alarms;
pub mod analyses;
pub mod api;
pub mod audit;
pub mod auth;
pub mod browser_ws;
pub mod call;
pub mod captures;
pub mod companies;
pub mod device_secrets;
pub mod device_types;
pub mod devices;
pub mod error;
pub mod exports;
pub mod json;
pub mod layout;
pub mod patients;
pub mod preview;
pub mod registration;
pub mod reports;
pub mod server;
pub mod state;
pub mod static_files;

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

/// Largest browser WebSocket message accepted (browsers send small events).
const BROWSER_MESSAGE_LIMIT: usize = 64 * 1024;

/// Every REST call of spec §7, documented. Paths the spec leaves open are chosen in docs/api.md.
pub fn api(state: &Arc<AppState>) -> Api {
    let mut api = Api::default();
    let s = state;
    let d = DEFAULT_BODY_LIMIT;
    // Authentication and companies.
    api_route!(api, s, POST, LOGIN_BODY_LIMIT, Public, "auth", "/api/auth/login", "Sign in; answers a bearer token", auth::login, "api" / "auth" / "login");
    api_route!(api, s, POST, d, User, "auth", "/api/auth/logout", "Sign out: revoke the caller's token (later calls and sockets with it get 401)", auth::logout, "api" / "auth" / "logout");
    api_route!(api, s, POST, d, Admin, "auth", "/api/auth/signup", "Create a staff user in a company", auth::signup, "api" / "auth" / "signup");
    api_route!(api, s, GET, d, Admin, "auth", "/api/auth/companies", "Every company", companies::list, "api" / "auth" / "companies");
    api_route!(api, s, GET, d, Admin, "auth", "/api/auth/companiesname", "Every company's name", companies::names, "api" / "auth" / "companiesname");
    api_route!(api, s, POST, d, Admin, "auth", "/api/auth/company/register", "Create a company", companies::register, "api" / "auth" / "company" / "register");
    api_route!(api, s, GET, d, User, "company", "/api/companyUser", "The caller's company and branding", companies::own, "api" / "companyUser");
    api_route!(api, s, PUT, d, Admin, "company", "/api/companyUser", "Save the caller's company's name, address and logo", companies::update_own, "api" / "companyUser");
    api_route!(api, s, GET, d, User, "company", "/api/companyVariants", "The caller's company's variants (hideCentreOfPressure, fitness, seatingLabels)", companies::variants, "api" / "companyVariants");
    api_route!(api, s, PUT, d, Admin, "company", "/api/companyVariants", "Switch the caller's company's variants (all three booleans)", companies::set_variants, "api" / "companyVariants");
    api_route!(api, s, GET, d, Admin, "company", "/api/auditLog/{page}", "The audit log of administrative actions about or by the caller's company, newest first, 20 a page; {page} from 1", audit::list, "api" / "auditLog" / String);
    // Devices.
    api_route!(api, s, GET, d, User, "devices", "/api/deviceTypes", "The device-type table: routes, page families, frame shapes, capabilities", device_types::list, "api" / "deviceTypes");
    api_route!(api, s, GET, d, User, "devices", "/api/userDevices", "The company's devices", devices::user_devices, "api" / "userDevices");
    api_route!(api, s, GET, d, User, "devices", "/api/deviceConfCompany", "The company's device configurations and live statuses", devices::device_conf_company, "api" / "deviceConfCompany");
    api_route!(api, s, GET, d, User, "devices", "/api/deviceConfiguration/{id}", "One device's configuration", devices::device_configuration, "api" / "deviceConfiguration" / String);
    api_route!(api, s, PUT, d, User, "devices", "/api/device/{id}", "Rename and relocate a device (name, room, bed)", devices::update, "api" / "device" / String);
    api_route!(api, s, GET, d, User, "devices", "/api/device/{id}/repositioning", "The repositioning clock: interval, tier and seconds until the next turn is due", devices::get_repositioning, "api" / "device" / String / "repositioning");
    api_route!(api, s, PUT, d, User, "devices", "/api/device/{id}/repositioning", "Set the repositioning interval (minutes, null for 2 h)", devices::set_repositioning, "api" / "device" / String / "repositioning");
    api_route!(api, s, GET, d, User, "devices", "/api/device/obtainList/{company}/{type}/{x}", "The company's devices of a type; x: page of 10, 0 for all", devices::obtain_list, "api" / "device" / "obtainList" / String / String / String);
    api_route!(api, s, GET, d, User, "devices", "/api/ForceDeviceApi/{id}", "A Force Mat's four channels and their sum", devices::force_values, "api" / "ForceDeviceApi" / String);
    api_route!(api, s, GET, d, User, "devices", "/api/standard/pressureMapLogs/{serial}", "A device's latest pressure map", devices::pressure_map_log, "api" / "standard" / "pressureMapLogs" / String);
    api_route!(api, s, POST, d, Admin, "devices", "/api/device/{id}/secret", "Rotate a device's secret; answers the new one once (the old one stops working, a connected device is disconnected)", device_secrets::rotate, "api" / "device" / String / "secret");
    api_route!(api, s, POST, d, Admin, "registration", "/api/deviceandconfRegistration", "Register a device; answers its one-time secret", registration::register, "api" / "deviceandconfRegistration");
    api_route!(api, s, POST, d, Admin, "registration", "/api/registerAll", "Create a company, its first user and device", registration::register_all, "api" / "registerAll");
    api_route!(api, s, POST, d, Admin, "registration", "/api/quickRegistration", "Register a device with a generated login", registration::quick_register, "api" / "quickRegistration");
    // Alarms and logs.
    api_route!(api, s, GET, d, User, "alarms", "/api/iotCheckAlarms/{serial}", "'True' while the device has an unattended alarm", alarms::check, "api" / "iotCheckAlarms" / String);
    api_route!(api, s, GET, d, User, "alarms", "/api/iotAlarms/{id}", "A device's alarm log", alarms::list, "api" / "iotAlarms" / String);
    api_route!(api, s, PUT, d, User, "alarms", "/api/iotAlarms/{id}", "Attend a device's pending alarms", alarms::attend, "api" / "iotAlarms" / String);
    api_route!(api, s, PUT, d, User, "alarms", "/api/attendAlarm/{serial}", "Attend a sub-device's pending alarms by serial", alarms::attend_by_serial, "api" / "attendAlarm" / String);
    api_route!(api, s, GET, d, User, "alarms", "/api/iotLogs/{id}", "A device's log", alarms::device_logs, "api" / "iotLogs" / String);
    api_route!(api, s, GET, d, User, "alarms", "/api/presenceLogs/{id}", "A device's entrances and exits", alarms::presence_logs, "api" / "presenceLogs" / String);
    api_route!(api, s, POST, d, User, "alarms", "/api/iotRequests/{serial}", "Start a remote dynamic capture for the caller's selected patient", captures::start, "api" / "iotRequests" / String);
    // Analyses.
    let a = ANALYSIS_BODY_LIMIT;
    api_route!(api, s, POST, a, User, "analyses", "/api/podometryAnalysis/{patientId}", "Store a podology, balance, fitting or rehab analysis", analyses::create_podometry, "api" / "podometryAnalysis" / String);
    api_route!(api, s, POST, a, User, "analyses", "/api/seatingAnalysis/{patientId}", "Store a seating analysis", analyses::create_seating, "api" / "seatingAnalysis" / String);
    api_route!(api, s, PUT, d, User, "analyses", "/api/podometryAnalysis/specific/{id}", "Replace an analysis's notes", analyses::update_notes, "api" / "podometryAnalysis" / "specific" / String);
    api_route!(api, s, DELETE, d, User, "analyses", "/api/podometryAnalysis/specific/{id}", "Delete an analysis", analyses::delete, "api" / "podometryAnalysis" / "specific" / String);
    api_route!(api, s, GET, d, User, "analyses", "/api/podometryAnalysisPage/{userId}/{analysisType}/{page}", "A history page of 10", analyses::page, "api" / "podometryAnalysisPage" / String / String / String);
    api_route!(api, s, GET, d, User, "analyses", "/api/podometryAnalysisCount/{userId}/{analysisType}", "History totals", analyses::count, "api" / "podometryAnalysisCount" / String / String);
    api_route!(api, s, GET, d, User, "analyses", "/api/podometryAnalysisPatient/{userId}/{patientId}/{analysisType}/{page}", "A patient's history page of 10", analyses::patient_page, "api" / "podometryAnalysisPatient" / String / String / String / String);
    api_route!(api, s, GET, d, User, "analyses", "/api/podometryAnalysisCountPatient/{userId}/{patientId}/{analysisType}", "A patient's history totals", analyses::patient_count, "api" / "podometryAnalysisCountPatient" / String / String / String);
    api_route!(api, s, POST, d, User, "reports", "/api/downloadAnalysisPDF/{id}/{x}", "The analysis report as PDF (layoutOptions: widgets, language, palette)", reports::analysis_pdf, "api" / "downloadAnalysisPDF" / String / String);
    api_route!(api, s, POST, d, User, "reports", "/api/downloadRealScalePDF/{id}", "The map at real scale on A3 or A4, as PDF", reports::real_scale_pdf, "api" / "downloadRealScalePDF" / String);
    api_route!(api, s, GET, d, User, "reports", "/api/analysisExport/{id}/{kind}", "Raw-data export (processed or unprocessed) as a JSON file", exports::export, "api" / "analysisExport" / String / String);
    // Patients.
    api_route!(api, s, GET, d, User, "patients", "/api/podometry/patients/{userId}", "The company's patients", patients::list, "api" / "podometry" / "patients" / String);
    api_route!(api, s, POST, d, User, "patients", "/api/podometry/patients/{userId}", "Register a patient", patients::create, "api" / "podometry" / "patients" / String);
    api_route!(api, s, GET, d, User, "patients", "/api/podometry/patient/select/{userId}", "The caller's selected patient", patients::selected, "api" / "podometry" / "patient" / "select" / String);
    api_route!(api, s, PUT, d, User, "patients", "/api/podometry/patient/select/{userId}", "Select a patient", patients::select, "api" / "podometry" / "patient" / "select" / String);
    api_route!(api, s, PUT, d, User, "patients", "/api/podometry/patient/{patientId}", "Edit a patient", patients::update, "api" / "podometry" / "patient" / String);
    // Layout.
    api_route!(api, s, GET, d, User, "layout", "/api/LayoutSettings/{userId}", "The caller's layout settings", layout::get, "api" / "LayoutSettings" / String);
    api_route!(api, s, PUT, d, User, "layout", "/api/LayoutSettings/{userId}", "Save the caller's layout settings", layout::save, "api" / "LayoutSettings" / String);
    api_route!(api, s, POST, d, User, "layout", "/api/LayoutSettings/{userId}", "Save the caller's layout settings", layout::save, "api" / "LayoutSettings" / String);
    api
}

/// Every route of the hub.
pub fn routes(state: Arc<AppState>) -> BoxedFilter<(warp::reply::Response,)> {
    let metrics = {
        let metrics = state.metrics.clone();
        warp::path!("metrics").and(warp::get()).map(move || {
            warp::reply::with_header(metrics.render(), "content-type", "text/plain; version=0.0.4").into_response()
        })
    };
    let browser_socket = warp::path!("ws")
        .and(warp::ws())
        .and(warp::header::optional::<String>("authorization"))
        .and(with_state(state.clone()))
        .map(|ws: warp::ws::Ws, header: Option<String>, state: Arc<AppState>| {
            let claims = header.as_deref().and_then(|h| h.strip_prefix("Bearer ")).and_then(|t| auth::verify(&state, t).ok());
            ws.max_message_size(BROWSER_MESSAGE_LIMIT).on_upgrade(move |socket| browser_ws::serve(socket, state, claims)).into_response()
        });
    let device_socket = warp::path!("ingest")
        .and(warp::ws())
        .and(server::remote())
        .and(with_state(state.clone()))
        .map(|ws: warp::ws::Ws, peer: Option<SocketAddr>, state: Arc<AppState>| {
            let ingest = state.ingest.clone();
            ws.max_message_size(TRANSPORT_MESSAGE_LIMIT)
                .max_frame_size(TRANSPORT_MESSAGE_LIMIT)
                .on_upgrade(move |socket| crate::ingest::websocket::serve(socket, peer, ingest))
                .into_response()
        });
    api(&state)
        .into_filter()
        .or(metrics)
        .unify()
        .or(browser_socket)
        .unify()
        .or(device_socket)
        .unify()
        .or(static_files::routes(state.client_dir.clone()))
        .unify()
        .recover(error::recover)
        .unify()
        .boxed()
}
