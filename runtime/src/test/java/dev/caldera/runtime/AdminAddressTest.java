package dev.caldera.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

class AdminAddressTest {

  @Test
  void theCommandsThatAskARunningSchedulerShareOneAdminOption() {
    CommandLine caldera = CalderaCommand.commandLine(System.out, System.err);
    List<String> descriptions =
        List.of("why", "queues", "queue", "snapshot").stream()
            .map(
                name -> {
                  OptionSpec admin =
                      caldera.getSubcommands().get(name).getCommandSpec().findOption("--admin");
                  assertThat(admin).as(name).isNotNull();
                  return String.join(" ", admin.description()) + " default=" + admin.defaultValue();
                })
            .toList();

    assertThat(descriptions).containsOnly(descriptions.get(0));
    assertThat(descriptions.get(0)).contains("$CALDERA_ADMIN_URL").endsWith("default=null");
  }

  @Test
  void anAddressIsUsedWithoutItsTrailingSlash() {
    AdminAddress address = new AdminAddress();
    address.url = "http://scheduler:8080/";

    assertThat(address.base()).isEqualTo("http://scheduler:8080");
  }
}
