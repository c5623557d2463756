package ${package};

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The operator: a Spring Boot application whose beans Kubeop calls for the resources it
 * watches ({@code kubeop.informers} in {@code application.yaml}).
 */
@SpringBootApplication
public class OperatorApplication {

	public static void main(String[] args) {
		SpringApplication.run(OperatorApplication.class, args);
	}

}
