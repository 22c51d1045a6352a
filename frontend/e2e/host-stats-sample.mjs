/**
 * A day of `iostat -x -t 600` output (sysstat 12 layout) for two disks, deterministic: 100 reads
 * and 50 writes of 8 KiB per second per disk, 10:00-11:00 four times that (the peak hour, 12 ms
 * reads), 02:00-03:00 a batch of 256 KiB writes (the nightly batch). The second disk does 1.1 times
 * the first. Used by the e2e test and by `scripts/record-fixtures.mjs`.
 *
 * @param {string} day ISO date of the day, e.g. '2024-01-15'
 * @returns {string}
 */
export function syntheticIostat(day = '2024-01-15') {
  const [y, m, d] = day.split('-').map(Number);
  const pad = (n) => String(n).padStart(2, '0');
  const f = (x) => x.toFixed(2);
  const lines = [`Linux 5.15.0-91-generic (dbhost01) \t${pad(m)}/${pad(d)}/${y} \t_x86_64_\t(8 CPU)`, ''];
  const header =
    'Device            r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wkB/s   wrqm/s  %wrqm w_await wareq-sz     d/s     dkB/s   drqm/s  %drqm d_await dareq-sz     f/s f_await  aqu-sz  %util';
  for (let i = 0; i <= 144; i += 1) {
    const minutes = i * 10;
    const end = new Date(Date.UTC(y, m - 1, d, 0, minutes));
    const hour = new Date(end.getTime() - 1000).getUTCHours();
    const h12 = end.getUTCHours() % 12 || 12;
    const stamp = `${pad(end.getUTCMonth() + 1)}/${pad(end.getUTCDate())}/${end.getUTCFullYear()} ${pad(h12)}:${pad(end.getUTCMinutes())}:00 ${end.getUTCHours() < 12 ? 'AM' : 'PM'}`;
    lines.push(stamp, header);
    for (const [k, name] of [
      [1.0, 'sda'],
      [1.1, 'sdb'],
    ]) {
      let [r, w, rk, wk, rl, wl] = [100, 50, 8, 8, 5, 2];
      if (i === 0) [r, w, rk, wk, rl, wl] = [1, 1, 4, 4, 1, 1]; // since boot
      else if (hour === 10) [r, w, rk, wk, rl, wl] = [400, 200, 8, 8, 12, 4];
      else if (hour === 2) [r, w, rk, wk, rl, wl] = [50, 300, 64, 256, 6, 9];
      r *= k;
      w *= k;
      const queue = (r * rl + w * wl) / 1000;
      const util = Math.min(100, (r + w) / 20);
      const values = [r, r * rk, 1.5, 0, rl, rk, w, w * wk, 1.5, 0, wl, wk, 0, 0, 0, 0, 0, 0, 0, 0, queue, util];
      lines.push(`${name.padEnd(10)}${values.map((v) => f(v).padStart(8)).join(' ')}`);
    }
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}
