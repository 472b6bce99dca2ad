//! Commands across hubs over NATS request/reply (issue 25, docs/scale-out.md "Commands to the
//! owner"): the route a session or REST handler uses for a device another hub owns, and the
//! owner's service, which answers on a device's command subject while its actor holds the
//! device's connection here (subscribed when the actor claims the device, unsubscribed when it
//! lets go). The messages are `commands_wire`'s; what a delivery means is `commands_route`'s.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use actors::actor::registry::RegistryMsg;
use actors::actor::session_commands::{CALL_TIMEOUT, CommandOutcome, DeviceCommand, execute};
use actors::actor::storage_writer::WriterMsg;
use actors::fanout::{CommandRoute, RouteOutcome};
use futures_util::StreamExt;
use ractor::ActorRef;
use ractor::rpc::CallResult;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

use super::Cluster;
use super::commands_route::{COMMAND_TIMEOUT, Delivery, outcome_of, unanswered};
use super::commands_wire::{CommandReply, CommandRequest, command_subject, decode, encode};
use super::lease_keeper::LeaseKeeper;

/// A device's connection came to this hub's actor, or left it.
#[derive(Debug)]
pub enum Ownership {
    Claimed(Arc<str>),
    Released(Arc<str>),
}

/// How long the command service waits for this hub's lease of a device to be confirmed again
/// (after a pause) before it answers: the asking hub waits [`COMMAND_TIMEOUT`], and the command
/// itself up to `CALL_TIMEOUT` after this.
pub const OWNER_CONFIRMATION_WAIT: Duration = Duration::from_millis(1500);

/// The route to the owner of a device this hub does not own.
pub struct NatsCommandRoute {
    pub client: async_nats::Client,
    pub node: String,
    /// This hub's leases: a device held here is commanded here only while its lease is valid.
    pub leases: Option<Arc<LeaseKeeper>>,
    /// The lease bucket, opened when a command first finds nobody answering.
    pub bucket: Arc<tokio::sync::OnceCell<async_nats::jetstream::kv::Store>>,
}

/// What the lease bucket holds for `device`; `None` when NATS does not say within
/// `COMMAND_TIMEOUT`.
async fn lease_of(
    client: &async_nats::Client,
    bucket: &tokio::sync::OnceCell<async_nats::jetstream::kv::Store>,
    device: &str,
) -> Option<super::lease::Observed> {
    let read = async {
        let bucket = bucket
            .get_or_try_init(|| async { async_nats::jetstream::new(client.clone()).get_key_value(super::lease_keeper::BUCKET).await })
            .await
            .ok()?;
        super::lease_keeper::observe(bucket, device).await.ok()
    };
    tokio::time::timeout(COMMAND_TIMEOUT, read).await.ok().flatten()
}

impl CommandRoute for NatsCommandRoute {
    fn may_act_as_owner(&self, device_id: &str) -> bool {
        self.leases.as_ref().is_none_or(|leases| leases.may_act_as_owner(device_id))
    }

    fn send(&self, device_id: &str, command: DeviceCommand) -> Pin<Box<dyn Future<Output = RouteOutcome> + Send>> {
        let (client, bucket) = (self.client.clone(), self.bucket.clone());
        let device = device_id.to_owned();
        let request = CommandRequest { origin: self.node.clone(), device_id: device_id.to_owned(), command };
        let subject = command_subject(device_id);
        Box::pin(async move {
            let request = async_nats::Request::new().payload(encode(&request)).timeout(Some(COMMAND_TIMEOUT));
            let delivery = match client.send_request(subject, request).await {
                Ok(reply) => Delivery::Replied(reply.payload.to_vec()),
                Err(error) if error.kind() == async_nats::client::RequestErrorKind::NoResponders => Delivery::NoResponders,
                Err(error) => Delivery::Failed(error.to_string()),
            };
            match delivery {
                Delivery::NoResponders => unanswered(lease_of(&client, &bucket, &device).await.as_ref()),
                delivery => outcome_of(delivery),
            }
        })
    }
}

/// Answers the commands of every device this hub owns, one subscription per device.
pub async fn serve_owned_devices(
    cluster: Cluster,
    registry: ActorRef<RegistryMsg>,
    writer: ActorRef<WriterMsg>,
    leases: Option<Arc<LeaseKeeper>>,
    mut changes: mpsc::UnboundedReceiver<Ownership>,
    mut stopped: watch::Receiver<bool>,
) {
    let mut serving: HashMap<Arc<str>, JoinHandle<()>> = HashMap::new();
    loop {
        tokio::select! {
            change = changes.recv() => match change {
                Some(Ownership::Claimed(device_id)) => {
                    match cluster.client.subscribe(command_subject(&device_id)).await {
                        Ok(subscriber) => {
                            let task = tokio::spawn(answer(
                                cluster.clone(),
                                registry.clone(),
                                writer.clone(),
                                leases.clone(),
                                device_id.clone(),
                                subscriber,
                            ));
                            if let Some(old) = serving.insert(device_id, task) {
                                old.abort();
                            }
                        }
                        Err(error) => tracing::warn!(%error, device = %device_id, "cannot answer the device's commands from other hubs"),
                    }
                }
                // Dropping the subscriber (with its task) unsubscribes.
                Some(Ownership::Released(device_id)) => {
                    if let Some(task) = serving.remove(&device_id) {
                        task.abort();
                    }
                }
                None => break,
            },
            _ = stopped.changed() => break,
        }
    }
    for task in serving.into_values() {
        task.abort();
    }
}

/// Runs each command that arrives for one device on its actor here and replies with the outcome;
/// a command that writes records (an attendance, a turn) is answered once this hub's writer has
/// stored them, as on a single hub, so the asking hub reads them back from the shared store.
/// Only while this hub's lease of the device is known valid: after a pause it waits up to
/// [`OWNER_CONFIRMATION_WAIT`] for the renewal's answer, and stays silent if the lease was lost
/// (the new owner, subscribed too, answers) or is still unconfirmed (the asker times out).
async fn answer(
    cluster: Cluster,
    registry: ActorRef<RegistryMsg>,
    writer: ActorRef<WriterMsg>,
    leases: Option<Arc<LeaseKeeper>>,
    device_id: Arc<str>,
    mut requests: async_nats::Subscriber,
) {
    while let Some(message) = requests.next().await {
        let Some(reply_to) = message.reply else { continue };
        if let Some(leases) = &leases
            && !leases.await_owner(&device_id, OWNER_CONFIRMATION_WAIT).await
        {
            tracing::warn!(device = %device_id, "a command was not answered: this hub's lease of the device is not confirmed");
            continue;
        }
        let outcome = match decode::<CommandRequest>(&message.payload) {
            Some(request) if *request.device_id == *device_id => {
                let writes = request.command.writes_records();
                let outcome = execute(&registry, device_id.clone(), request.command).await;
                if writes && !matches!(writer.call(WriterMsg::Flush, Some(CALL_TIMEOUT)).await, Ok(CallResult::Success(Ok(())))) {
                    CommandOutcome::Unavailable { reason: "the device's records could not be stored".into() }
                } else {
                    outcome
                }
            }
            _ => CommandOutcome::Unavailable { reason: "an unreadable command".into() },
        };
        let reply = CommandReply { owner: cluster.node.to_string(), outcome };
        if let Err(error) = cluster.client.publish(reply_to, encode(&reply)).await {
            tracing::warn!(%error, device = %device_id, "a command's answer could not be sent");
        }
    }
}
