//! The REST API's route table: every call is added with its documentation, so the OpenAPI
//! document (`GET /api/openapi.json`) lists exactly the routes the hub serves, and a path that
//! exists with another method answers 405 instead of 404.

use std::collections::{BTreeMap, BTreeSet};

use schemars::generate::{Contract, SchemaGenerator, SchemaSettings};
use schemars::{JsonSchema, Schema};
use serde_json::{Map, Value, json};
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::{Filter, Reply};

use super::error::{ApiError, ErrorBody, reply};

/// Who may call a route; it decides the type the route's handler receives
/// ([`super::caller::by_access`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// No token (login).
    Public,
    /// Any signed-in user, within their company.
    User,
    /// Administrators (role 1).
    Admin,
    /// The ward board's reads: any signed-in user, or a paired ward screen (role 3) limited to
    /// its unit. Every other non-public route refuses a ward screen (403).
    Board,
}

/// The JSON Schema of a Rust type, registered with a generator (named types become
/// `#/components/schemas/<Name>` references).
pub type SchemaFn = fn(&mut SchemaGenerator) -> Schema;

fn schema_of<T: JsonSchema>(generator: &mut SchemaGenerator) -> Schema {
    generator.subschema_for::<T>()
}

/// What a successful response carries.
#[derive(Debug, Clone, Copy)]
pub enum Content {
    /// `application/json` of this type.
    Json(SchemaFn),
    /// An `application/pdf` file.
    Pdf,
    /// No body (204).
    Empty,
}

/// One documented successful response.
#[derive(Debug, Clone, Copy)]
pub struct ResponseDoc {
    pub status: u16,
    pub content: Content,
}

/// A path parameter whose values are narrower than any string.
#[derive(Debug, Clone, Copy)]
pub struct ParamDoc {
    pub name: &'static str,
    pub schema: SchemaFn,
}

/// One route's documentation: the route table's entry for the OpenAPI document.
#[derive(Debug, Clone)]
pub struct RouteDoc {
    /// `GET`, `POST`, `PUT` or `DELETE`.
    pub method: &'static str,
    /// The path with `{name}` parameters, as in OpenAPI.
    pub path: &'static str,
    pub access: Access,
    /// OpenAPI tag (the spec §7 group).
    pub tag: &'static str,
    pub summary: &'static str,
    /// The JSON request body's type, for routes that read one.
    pub request: Option<SchemaFn>,
    /// Successful responses.
    pub responses: Vec<ResponseDoc>,
    /// Error statuses this route answers besides the ones its access, body and path imply.
    pub errors: BTreeSet<u16>,
    /// Path parameters with their own schema (the others are any non-empty string).
    pub params: Vec<ParamDoc>,
}

impl RouteDoc {
    /// A route without request body or documented responses yet (see the builder methods).
    pub fn new(method: &'static str, path: &'static str, access: Access, tag: &'static str, summary: &'static str) -> Self {
        RouteDoc { method, path, access, tag, summary, request: None, responses: Vec::new(), errors: BTreeSet::new(), params: Vec::new() }
    }

    /// The route reads a JSON body of type `T`.
    pub fn body<T: JsonSchema>(mut self) -> Self {
        self.request = Some(schema_of::<T>);
        self
    }

    /// The route answers `status` with a JSON body of type `T`.
    pub fn json<T: JsonSchema>(mut self, status: u16) -> Self {
        self.responses.push(ResponseDoc { status, content: Content::Json(schema_of::<T>) });
        self
    }

    /// The route answers `status` with a PDF file.
    pub fn pdf(mut self, status: u16) -> Self {
        self.responses.push(ResponseDoc { status, content: Content::Pdf });
        self
    }

    /// The route answers `status` without a body.
    pub fn empty(mut self, status: u16) -> Self {
        self.responses.push(ResponseDoc { status, content: Content::Empty });
        self
    }

    /// Further error statuses (409 for duplicates, 503 for a device that does not answer, …).
    pub fn errors(mut self, statuses: &[u16]) -> Self {
        self.errors.extend(statuses);
        self
    }

    /// The path parameter `name` takes values of `T` (an enum, a page number, …).
    pub fn param<T: JsonSchema>(mut self, name: &'static str) -> Self {
        self.params.push(ParamDoc { name, schema: schema_of::<T> });
        self
    }

    /// The path parameter `name` takes the values this schema function describes (built from the
    /// hub's own table of them).
    pub fn param_with(mut self, name: &'static str, schema: SchemaFn) -> Self {
        self.params.push(ParamDoc { name, schema });
        self
    }

    /// The path's `{name}` parameters, in order.
    pub fn path_params(&self) -> impl Iterator<Item = &'static str> {
        self.path.split('/').filter_map(|segment| segment.strip_prefix('{')?.strip_suffix('}'))
    }

    /// Every error status the route may answer: 401 without a valid token and 403 for a role
    /// that may not call it, 400 and 413 for a body that is not the documented JSON or too large,
    /// 404 for a path id that is unknown or of another company, and the route's own.
    pub fn error_statuses(&self) -> BTreeSet<u16> {
        let mut statuses = self.errors.clone();
        if self.access != Access::Public {
            statuses.insert(401);
        }
        if self.access != Access::Public && self.access != Access::Board {
            // A ward screen's token (role 3) is refused by every route but the board's reads.
            statuses.insert(403);
        }
        if self.request.is_some() {
            statuses.extend([400, 413]);
        }
        if self.path_params().next().is_some() {
            statuses.insert(404);
        }
        statuses
    }
}

/// Routes being assembled.
#[derive(Default)]
pub struct Api {
    docs: Vec<RouteDoc>,
    filters: Vec<BoxedFilter<(warp::reply::Response,)>>,
}

/// Adds a route: its warp path, method, body limit, access, handler and documentation. The
/// handler takes the path parameters and what the access names
/// ([`super::caller::by_access`]: the bare [`super::call::Call`] for `Public`, a
/// [`super::caller::Caller`] for `User`, an [`super::caller::Admin`] for `Admin`), checked before
/// it runs, and returns `Result<Response, ApiError>`; a refused call is answered by the route. After the path segments, `; doc` and [`RouteDoc`] builder calls
/// name the request body type, the response types and further error statuses, from which the
/// OpenAPI document's schemas are derived:
/// `…, "api" / "device" / String; doc.body::<DeviceSettingsInput>().json::<DeviceJson>(200)`.
#[macro_export]
macro_rules! api_route {
    ($api:expr, $state:expr, $method:ident, $limit:expr, $access:ident, $tag:literal, $template:literal, $summary:literal, $handler:expr, $($segment:tt)/+ ; doc $($doc:tt)*) => {
        $api.add(
            $crate::http::api::RouteDoc::new(
                stringify!($method),
                $template,
                <$crate::http::caller::by_access::$access as $crate::http::caller::Verify>::ACCESS,
                $tag,
                $summary,
            ) $($doc)*,
            warp::path!($($segment)/+)
                .and($crate::http::api::method(stringify!($method)))
                .and($crate::http::caller::verified::<$crate::http::caller::by_access::$access>($state.clone(), $limit))
                .then($handler)
                .map($crate::http::error::finish)
                .recover($crate::http::caller::answer_refused)
                .unify()
                .boxed(),
        )
    };
    ($api:expr, $state:expr, $method:ident, $limit:expr, $access:ident, $tag:literal, $template:literal, $summary:literal, $handler:expr, $($path:tt)*) => {
        $crate::api_route!($api, $state, $method, $limit, $access, $tag, $template, $summary, $handler, $($path)*; doc)
    };
}

/// The warp method filter for a method name.
pub fn method(name: &str) -> BoxedFilter<()> {
    match name {
        "GET" => warp::get().boxed(),
        "POST" => warp::post().boxed(),
        "PUT" => warp::put().boxed(),
        "DELETE" => warp::delete().boxed(),
        other => unreachable!("no route uses {other}"),
    }
}

impl Api {
    /// Adds a documented route.
    pub fn add(&mut self, doc: RouteDoc, filter: BoxedFilter<(warp::reply::Response,)>) {
        self.docs.push(doc);
        self.filters.push(filter);
    }

    /// The documentation of every route.
    pub fn docs(&self) -> &[RouteDoc] {
        &self.docs
    }

    /// All routes, then `GET /api/openapi.json`, then 405 for known paths with another method
    /// and 404 for the rest of `/api`.
    pub fn into_filter(self) -> BoxedFilter<(warp::reply::Response,)> {
        let document = openapi(&self.docs);
        let openapi_route =
            warp::path!("api" / "openapi.json").and(warp::get()).map(move || warp::reply::json(&document).into_response()).boxed();
        let docs = self.docs.clone();
        let fallback = warp::path("api")
            .and(warp::path::full())
            .and(warp::method())
            .map(move |path: warp::path::FullPath, method: warp::http::Method| unmatched(&docs, path.as_str(), method.as_str()))
            .boxed();
        let mut filters = self.filters.into_iter();
        let first = filters
            .next()
            .unwrap_or_else(|| warp::any().and_then(|| async { Err::<warp::reply::Response, _>(warp::reject::not_found()) }).boxed());
        filters.chain([openapi_route, fallback]).fold(first, |all, next| all.or(next).unify().boxed())
    }
}

/// Whether a concrete path matches a `{param}` template.
pub fn template_matches(template: &str, path: &str) -> bool {
    let mut template = template.trim_matches('/').split('/');
    let mut path = path.trim_matches('/').split('/');
    loop {
        match (template.next(), path.next()) {
            (None, None) => return true,
            (Some(t), Some(p)) if (t.starts_with('{') && !p.is_empty()) || t == p => continue,
            _ => return false,
        }
    }
}

fn unmatched(docs: &[RouteDoc], path: &str, method: &str) -> warp::reply::Response {
    let allowed: Vec<&str> = docs.iter().filter(|d| template_matches(d.path, path)).map(|d| d.method).collect();
    if allowed.is_empty() || allowed.contains(&method) {
        return reply(&ApiError::new(StatusCode::NOT_FOUND, "notFound", "no such API call"));
    }
    let mut response =
        reply(&ApiError::new(StatusCode::METHOD_NOT_ALLOWED, "methodNotAllowed", format!("{path} accepts {}", allowed.join(", "))));
    if let Ok(value) = warp::http::HeaderValue::from_str(&allowed.join(", ")) {
        response.headers_mut().insert("allow", value);
    }
    response
}

/// A schema generator whose named types go to `#/components/schemas`: `Deserialize` for what
/// the hub reads (a field with a default is optional), `Serialize` for what it answers.
fn generator(contract: Contract) -> SchemaGenerator {
    SchemaSettings::draft2020_12()
        .with(|settings| {
            settings.definitions_path = "/components/schemas".into();
            settings.meta_schema = None;
            settings.contract = contract;
        })
        .into_generator()
}

/// Points `$ref`s to renamed components.
fn rename_refs(value: &mut Value, renames: &BTreeMap<String, String>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(reference)) = map.get_mut("$ref")
                && let Some(renamed) = reference.strip_prefix("#/components/schemas/").and_then(|name| renames.get(name))
            {
                *reference = format!("#/components/schemas/{renamed}");
            }
            map.values_mut().for_each(|v| rename_refs(v, renames));
        }
        Value::Array(items) => items.iter_mut().for_each(|v| rename_refs(v, renames)),
        _ => {}
    }
}

/// An operation being documented: its route, responses, path parameters and request body schema.
type Operation<'a> = (&'a RouteDoc, Map<String, Value>, Vec<Value>, Option<Value>);

/// The OpenAPI 3.1 document of these routes, with the request, response and parameter schemas
/// derived from the Rust types the route table names.
pub fn openapi(docs: &[RouteDoc]) -> Value {
    let mut reads = generator(Contract::Deserialize);
    let mut answers = generator(Contract::Serialize);
    let error_schema = answers.subschema_for::<ErrorBody>().to_value();
    // Request-side values are kept apart until their components are named (below).
    let mut operations: Vec<Operation<'_>> = Vec::new();
    for doc in docs {
        let parameters: Vec<Value> = doc
            .path_params()
            .map(|name| {
                let schema = match doc.params.iter().find(|p| p.name == name) {
                    Some(param) => (param.schema)(&mut reads).to_value(),
                    None => json!({"type": "string", "minLength": 1}),
                };
                json!({"name": name, "in": "path", "required": true, "schema": schema})
            })
            .collect();
        let mut responses = Map::new();
        for response in &doc.responses {
            let content = match response.content {
                Content::Json(schema) => Some(json!({"application/json": {"schema": schema(&mut answers).to_value()}})),
                Content::Pdf => Some(json!({"application/pdf": {"schema": {"type": "string", "contentMediaType": "application/pdf"}}})),
                Content::Empty => None,
            };
            let mut answer = json!({"description": status_text(response.status)});
            if let Some(content) = content {
                answer["content"] = content;
            }
            responses.insert(response.status.to_string(), answer);
        }
        for status in doc.error_statuses() {
            responses.insert(status.to_string(), json!({"$ref": "#/components/responses/Error"}));
        }
        let request = doc.request.map(|schema| schema(&mut reads).to_value());
        operations.push((doc, responses, parameters, request));
    }
    let mut schemas: Map<String, Value> = answers.take_definitions(true).into_iter().collect();
    // A type read and answered alike shares one component; one whose read form differs (fields
    // with defaults are optional when read) gets a second, `<Name>Input`.
    let mut read_schemas = reads.take_definitions(true);
    let renames: BTreeMap<String, String> = read_schemas
        .iter()
        .filter(|(name, schema)| schemas.get(*name).is_some_and(|answered| answered != *schema))
        .map(|(name, _)| (name.clone(), format!("{name}Input")))
        .collect();
    for (name, mut schema) in std::mem::take(&mut read_schemas) {
        rename_refs(&mut schema, &renames);
        schemas.insert(renames.get(&name).cloned().unwrap_or(name), schema);
    }
    let mut paths = Map::new();
    for (doc, responses, mut parameters, request) in operations {
        parameters.iter_mut().for_each(|p| rename_refs(p, &renames));
        let mut operation = json!({
            "summary": doc.summary,
            "tags": [doc.tag],
            "operationId": format!("{} {}", doc.method, doc.path),
            "parameters": parameters,
            "responses": responses,
        });
        if doc.access != Access::Public {
            operation["security"] = json!([{"bearer": []}]);
        }
        match doc.access {
            Access::Admin => operation["x-role"] = json!("administrator (role 1)"),
            Access::Board => operation["x-role"] = json!("any user, or a paired ward screen (role 3) for its unit"),
            Access::User | Access::Public => {}
        }
        if let Some(mut schema) = request {
            rename_refs(&mut schema, &renames);
            operation["requestBody"] = json!({"required": true, "content": {"application/json": {"schema": schema}}});
        }
        let entry = paths.entry(doc.path.to_owned()).or_insert_with(|| json!({}));
        entry[doc.method.to_lowercase()] = operation;
    }
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "Pressure-mat hub REST API",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Spec §7 calls. Errors are {error, message}; error is an i18n key. See docs/api.md."
        },
        "paths": paths,
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "responses": {"Error": {"description": "An error: `error` is an i18n key, `message` explains it", "content": {"application/json": {"schema": error_schema}}}},
            "schemas": schemas,
        }
    })
}

/// The reason phrase of a success status, as the response's description.
fn status_text(status: u16) -> &'static str {
    StatusCode::from_u16(status).ok().and_then(|s| s.canonical_reason()).unwrap_or("OK")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_match_whole_segments() {
        assert!(template_matches("/api/device/{id}", "/api/device/abc"));
        assert!(!template_matches("/api/device/{id}", "/api/device/"));
        assert!(!template_matches("/api/device/{id}", "/api/device/abc/def"));
        assert!(!template_matches("/api/device/{id}", "/api/devices/abc"));
        assert!(template_matches("/api/userDevices", "/api/userDevices"));
    }

    #[test]
    fn a_known_path_with_another_method_is_405_with_allow() {
        let docs = [RouteDoc::new("PUT", "/api/device/{id}", Access::User, "devices", "")];
        let response = unmatched(&docs, "/api/device/x", "GET");
        assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED);
        assert_eq!(response.headers()["allow"], "PUT");
        assert_eq!(unmatched(&docs, "/api/nothing", "GET").status(), StatusCode::NOT_FOUND);
    }

    #[derive(schemars::JsonSchema, serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    #[allow(dead_code)]
    struct Rename {
        new_name: String,
        #[serde(default)]
        room: Option<String>,
    }

    #[derive(schemars::JsonSchema, serde::Serialize)]
    struct Renamed {
        name: String,
        #[serde(default)]
        room: String,
    }

    #[derive(schemars::JsonSchema, serde::Serialize)]
    #[allow(dead_code)]
    enum Kind {
        #[serde(rename = "processed")]
        Processed,
        #[serde(rename = "unprocessed")]
        Unprocessed,
    }

    #[test]
    fn the_document_lists_parameters_security_roles_and_error_statuses() {
        let docs = [
            RouteDoc::new("PUT", "/api/device/{id}/{kind}", Access::User, "devices", "Rename")
                .body::<Rename>()
                .json::<Renamed>(200)
                .param::<Kind>("kind"),
            RouteDoc::new("POST", "/api/auth/company/register", Access::Admin, "auth", "Create").json::<Renamed>(201).errors(&[409]),
            RouteDoc::new("POST", "/api/auth/login", Access::Public, "auth", "Sign in").pdf(200),
        ];
        let document = openapi(&docs);
        let put = &document["paths"]["/api/device/{id}/{kind}"]["put"];
        assert_eq!(put["parameters"][0]["name"], "id");
        assert_eq!(put["parameters"][0]["schema"], json!({"type": "string", "minLength": 1}));
        assert_eq!(put["parameters"][1]["schema"]["$ref"], "#/components/schemas/Kind");
        assert_eq!(put["security"][0]["bearer"], json!([]));
        let statuses: Vec<&String> = put["responses"].as_object().expect("responses").keys().collect();
        // 403: a ward screen's token (role 3) is refused by every route but the board's reads.
        assert_eq!(statuses, ["200", "400", "401", "403", "404", "413"], "body, token, role and path errors");
        let register = &document["paths"]["/api/auth/company/register"]["post"];
        let statuses: Vec<&String> = register["responses"].as_object().expect("responses").keys().collect();
        assert_eq!(statuses, ["201", "401", "403", "409"]);
        assert!(register.get("requestBody").is_none());
        let login = &document["paths"]["/api/auth/login"]["post"];
        assert!(login.get("security").is_none());
        assert!(login["responses"]["200"]["content"]["application/pdf"].is_object());
        let schemas = &document["components"]["schemas"];
        assert_eq!(schemas["Kind"]["enum"], json!(["processed", "unprocessed"]));
        assert_eq!(schemas["Rename"]["required"], json!(["newName"]), "a defaulted field is optional in a body");
        assert_eq!(schemas["Renamed"]["required"], json!(["name", "room"]), "every answered field is there");
        assert_eq!(put["requestBody"]["content"]["application/json"]["schema"]["$ref"], "#/components/schemas/Rename");
        assert_eq!(
            document["components"]["responses"]["Error"]["content"]["application/json"]["schema"]["$ref"],
            "#/components/schemas/ErrorBody"
        );
        assert_eq!(schemas["ErrorBody"]["required"], json!(["error", "message"]));
    }

    #[derive(schemars::JsonSchema, serde::Serialize, serde::Deserialize)]
    struct Both {
        #[serde(default)]
        name: String,
    }

    #[test]
    fn a_type_read_and_answered_differently_gets_two_components() {
        let docs = [RouteDoc::new("PUT", "/api/both", Access::User, "t", "").body::<Both>().json::<Both>(200)];
        let document = openapi(&docs);
        let schemas = &document["components"]["schemas"];
        assert_eq!(schemas["Both"]["required"], json!(["name"]));
        assert!(schemas["BothInput"].get("required").is_none());
        let put = &document["paths"]["/api/both"]["put"];
        assert_eq!(put["requestBody"]["content"]["application/json"]["schema"]["$ref"], "#/components/schemas/BothInput");
        assert_eq!(put["responses"]["200"]["content"]["application/json"]["schema"]["$ref"], "#/components/schemas/Both");
    }
}
