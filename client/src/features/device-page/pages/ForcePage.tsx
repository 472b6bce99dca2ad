//! Force Mat, Shapes and North Sky: four channel tiles and their sum, a real-time line chart of the
//! last 350 readings, and the log (entrances and exits, by the reading-above-200 rule the hub
//! applies). Readings are the device's live frames (four channels), pushed by the hub.

import { useTranslation } from 'react-i18next';
import { LineChart } from '../../../components/LineChart';
import { oidOf } from '../../../lib/api';
import { DevicePageFrame, type DevicePageProps } from '../DevicePageFrame';
import { ForceChannels } from '../ForceChannels';
import { forceReading } from '../frameMath';
import { PresenceLogTable } from '../PresenceLogTable';
import { PresencePanel } from '../PresencePanel';
import { StreamingControl } from '../StreamingControl';
import { useLiveHistory, useLiveSample } from '../useLiveSample';
import { useAtomValue } from 'jotai';
import { deviceConfFamily } from '../../../lib/devicesStore';

const CHANNEL_COLOURS = ['#2166cc', '#1f9d55', '#ea7a12', '#8e44ad'];
const TOTAL_COLOUR = '#d21e24';

export function ForcePage({ device, info }: DevicePageProps) {
  const { t } = useTranslation();
  const id = oidOf(device._id) as string;
  const conf = useAtomValue(deviceConfFamily(id));
  const reading = useLiveSample(id, forceReading);
  const history = useLiveHistory(id, (f) => forceReading(f));
  const channels = reading?.channels.length ?? 4;
  const series = [
    ...Array.from({ length: channels }, (_, i) => ({ label: t('pages.force.channel', { n: i + 1 }), color: CHANNEL_COLOURS[i % 4] })),
    { label: t('pages.force.total'), color: TOTAL_COLOUR },
  ];
  const values = [
    ...Array.from({ length: channels }, (_, i) => history.map((h) => h.v.channels[i] ?? 0)),
    history.map((h) => h.v.total),
  ];
  return (
    <DevicePageFrame device={device} info={info} live={[id]}>
      <section className="card map-panel">
        <div className="map-toolbar">
          <PresencePanel deviceId={id} />
          <StreamingControl deviceId={id} functional={conf ? Boolean(conf.deviceFunctional) : null} />
        </div>
        <ForceChannels reading={reading} />
        <LineChart
          label={t('pages.force.chart')}
          times={history.map((h) => h.t)}
          values={values}
          series={series}
          unit={t('units.reading')}
          testId="force-chart"
        />
      </section>
      <PresenceLogTable deviceId={id} title={t('pages.force.log')} />
    </DevicePageFrame>
  );
}
