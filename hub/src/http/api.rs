//! The REST API's route table: every call is added with its documentation, so the OpenAPI
//! document (`GET /api/openapi.json`) lists exactly the routes the hub serves, and a path that
//! exists with another method answers 405 instead of 404.

use serde_json::{json, Map, Value};
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::{Filter, Reply};

use super::error::{reply, ApiError};

/// Who may call a route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// No token (login).
    Public,
    /// Any signed-in user, within their company.
    User,
    /// Administrators (role 1).
    Admin,
}

/// One route's documentation.
#[derive(Debug, Clone, Copy)]
pub struct RouteDoc {
    /// `GET`, `POST`, `PUT` or `DELETE`.
    pub method: &'static str,
    /// The path with `{name}` parameters, as in OpenAPI.
    pub path: &'static str,
    pub access: Access,
    /// OpenAPI tag (the spec §7 group).
    pub tag: &'static str,
    pub summary: &'static str,
}

/// Routes being assembled.
#[derive(Default)]
pub struct Api {
    docs: Vec<RouteDoc>,
    filters: Vec<BoxedFilter<(warp::reply::Response,)>>,
}

/// Adds a route: its warp path, method, body limit, handler and documentation. The handler
/// takes the path parameters and a [`super::call::Call`], and returns
/// `Result<Response, ApiError>`.
#[macro_export]
macro_rules! api_route {
    ($api:expr, $state:expr, $method:ident, $limit:expr, $access:ident, $tag:literal, $template:literal, $summary:literal, $handler:expr, $($path:tt)*) => {
        $api.add(
            $crate::http::api::RouteDoc {
                method: stringify!($method),
                path: $template,
                access: $crate::http::api::Access::$access,
                tag: $tag,
                summary: $summary,
            },
            warp::path!($($path)*)
                .and($crate::http::api::method(stringify!($method)))
                .and($crate::http::call::call($state.clone(), $limit))
                .then($handler)
                .map($crate::http::error::finish)
                .boxed(),
        )
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
        let openapi_route = warp::path!("api" / "openapi.json").and(warp::get()).map(move || warp::reply::json(&document).into_response()).boxed();
        let docs = self.docs.clone();
        let fallback = warp::path("api")
            .and(warp::path::full())
            .and(warp::method())
            .map(move |path: warp::path::FullPath, method: warp::http::Method| unmatched(&docs, path.as_str(), method.as_str()))
            .boxed();
        let mut filters = self.filters.into_iter();
        let first = filters.next().unwrap_or_else(|| warp::any().and_then(|| async { Err::<warp::reply::Response, _>(warp::reject::not_found()) }).boxed());
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
    let mut response = reply(&ApiError::new(StatusCode::METHOD_NOT_ALLOWED, "methodNotAllowed", format!("{path} accepts {}", allowed.join(", "))));
    if let Ok(value) = warp::http::HeaderValue::from_str(&allowed.join(", ")) {
        response.headers_mut().insert("allow", value);
    }
    response
}

/// The OpenAPI 3.1 document of these routes.
pub fn openapi(docs: &[RouteDoc]) -> Value {
    let mut paths = Map::new();
    for doc in docs {
        let parameters: Vec<Value> = doc
            .path
            .split('/')
            .filter_map(|segment| segment.strip_prefix('{')?.strip_suffix('}'))
            .map(|name| json!({"name": name, "in": "path", "required": true, "schema": {"type": "string"}}))
            .collect();
        let mut responses = Map::new();
        responses.insert("200".into(), json!({"description": "OK", "content": {"application/json": {}}}));
        responses.insert("400".into(), json!({"$ref": "#/components/responses/Error"}));
        if doc.access != Access::Public {
            responses.insert("401".into(), json!({"$ref": "#/components/responses/Error"}));
            responses.insert("404".into(), json!({"$ref": "#/components/responses/Error"}));
        }
        if doc.access == Access::Admin {
            responses.insert("403".into(), json!({"$ref": "#/components/responses/Error"}));
        }
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
        if doc.access == Access::Admin {
            operation["x-role"] = json!("administrator (role 1)");
        }
        if matches!(doc.method, "POST" | "PUT") {
            operation["requestBody"] = json!({"content": {"application/json": {"schema": {"type": "object"}}}});
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
            "responses": {"Error": {"description": "An error", "content": {"application/json": {"schema": {
                "type": "object", "required": ["error", "message"],
                "properties": {"error": {"type": "string"}, "message": {"type": "string"}}
            }}}}}
        }
    })
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
        let docs = [RouteDoc { method: "PUT", path: "/api/device/{id}", access: Access::User, tag: "devices", summary: "" }];
        let response = unmatched(&docs, "/api/device/x", "GET");
        assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED);
        assert_eq!(response.headers()["allow"], "PUT");
        assert_eq!(unmatched(&docs, "/api/nothing", "GET").status(), StatusCode::NOT_FOUND);
    }

    #[test]
    fn the_document_lists_parameters_security_and_roles() {
        let docs = [
            RouteDoc { method: "PUT", path: "/api/device/{id}", access: Access::User, tag: "devices", summary: "Rename" },
            RouteDoc { method: "POST", path: "/api/auth/company/register", access: Access::Admin, tag: "auth", summary: "Create" },
        ];
        let document = openapi(&docs);
        assert_eq!(document["paths"]["/api/device/{id}"]["put"]["parameters"][0]["name"], "id");
        assert_eq!(document["paths"]["/api/device/{id}"]["put"]["security"][0]["bearer"], json!([]));
        assert!(document["paths"]["/api/auth/company/register"]["post"]["responses"]["403"].is_object());
    }
}
