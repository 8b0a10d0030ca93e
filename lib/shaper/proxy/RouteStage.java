package shaper.proxy;

import java.util.List;

/**
 * A mount's route stage: which targets may serve an exchange, in the order they are tried. A
 * provider's own mount has exactly one (that provider, {@link #own}); the routed mount
 * ({@link RoutedMount}) reads the request's model and lists its route's targets.
 */
interface RouteStage {
    /** The provider an exchange of this mount starts with: its trace begins in that journal and its intake is classified there. */
    ProviderAssembly home();

    /** The targets for the exchange, or a local answer (no route for its model, the routed mount's model list). */
    Route route(Carriage c, Intake intake);

    /** The exchange was served by {@code target} with {@code result} (not moved): a session may stick to it. */
    default void served(Exchange exchange, Target target, ExchangeResult result) {
    }

    /**
     * What the stage concluded.
     *
     * @param intake  the request, classified for the first target (its body perhaps now in memory)
     * @param targets the targets in order; empty when {@code answered} holds the exchange's end
     * @param answered the exchange as the stage answered it locally, or null
     */
    record Route(Intake intake, List<Target> targets, ExchangeResult answered) {
        public Route {
            targets = List.copyOf(targets);
        }
    }

    /** A provider's own mount: the provider, served its own way. */
    static RouteStage own(ProviderAssembly provider) {
        return new RouteStage() {
            @Override
            public ProviderAssembly home() {
                return provider;
            }

            @Override
            public Route route(Carriage c, Intake intake) {
                return new Route(intake, Target.candidates(provider, c.exchange()), null);
            }
        };
    }
}
