package dev.caldera.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ProcessCpuTest {

  @Test
  void procStat_isReadAfterTheCommandName_evenWithSpacesAndBracketsInIt() {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
    String stat = "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 130 0 0 20 0 30";

    assertThat(ProcessCpu.parseProcStat(stat)).contains(Duration.ofMillis(3_800));
  }

  @Test
  void procStat_thatIsCutShort_isNoReading() {
    assertThat(ProcessCpu.parseProcStat("4242 (java) S 1 2")).isEmpty();
    assertThat(ProcessCpu.parseProcStat("garbage")).isEmpty();
  }

  @Test
  void thisProcess_hasACpuTime() {
    assertThat(ProcessCpu.ofTree(ProcessHandle.current())).isPresent();
  }
}
